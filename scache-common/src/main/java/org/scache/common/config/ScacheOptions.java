package org.scache.common.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * Every configuration key SCache reads, declared once with its type, default and documentation.
 * {@code docs/configuration.md} is generated from this list ({@link ConfigDocs}).
 */
public final class ScacheOptions {
  private static final List<ConfigEntry<?>> ALL = new ArrayList<>();

  // ---------------------------------------------------------------- network
  public static final ConfigEntry<Integer> NETWORK_FRAME_META_MAX = intBytes("scache.network.frame.meta.max.bytes",
      "16m", "Largest frame metadata (everything but block data) a peer accepts; longer frames close the connection.");
  public static final ConfigEntry<Long> NETWORK_FRAME_PAYLOAD_MAX = bytes("scache.network.frame.payload.max.bytes",
      "1g", "Largest payload (block data) one frame may carry; also the largest block a put accepts.");
  public static final ConfigEntry<Duration> NETWORK_CONNECT_TIMEOUT = duration("scache.network.connect.timeout",
      "5s", "How long to wait for a TCP connection to a master or worker.");
  public static final ConfigEntry<Integer> NETWORK_IO_THREADS = intEntry("scache.network.io.threads", 0,
      "Netty event-loop threads per server or client; 0 means twice the number of cores.");

  // ---------------------------------------------------------------- security
  public static final ConfigEntry<String> SECURITY_CLUSTER_SECRET = string("scache.security.cluster.secret", "",
      "Secret shared by the master and all workers; signs the requests they send each other. Required by the "
          + "daemons: set the same value on every node and keep the file readable only by the SCache user.");

  // ---------------------------------------------------------------- master
  public static final ConfigEntry<String> MASTER_BIND_HOST = string("scache.master.bind.host", "0.0.0.0",
      "Address the master listens on.");
  public static final ConfigEntry<Integer> MASTER_PORT = intEntry("scache.master.rpc.port", 17010,
      "Port the master listens on; 0 picks a free port.");
  public static final ConfigEntry<Duration> MASTER_HEARTBEAT_INTERVAL = duration(
      "scache.master.worker.heartbeat.interval", "1s", "How often workers are told to send a heartbeat.");
  public static final ConfigEntry<Duration> MASTER_WORKER_EXPIRY = duration("scache.master.worker.expiry", "10s",
      "A worker without a heartbeat for this long is considered lost; its blocks are no longer located.");
  public static final ConfigEntry<Duration> MASTER_TOMBSTONE_TTL = duration("scache.master.application.tombstone.ttl",
      "1h", "How long a removed application is remembered, so that workers that missed the removal free its blocks.");

  // ---------------------------------------------------------------- worker
  public static final ConfigEntry<String> WORKER_ID = string("scache.worker.identity.id", "",
      "Identity of this worker; empty means advertised-host:port. Must differ between workers that share a host.");
  public static final ConfigEntry<String> WORKER_BIND_HOST = string("scache.worker.bind.host", "0.0.0.0",
      "Address the worker listens on.");
  public static final ConfigEntry<String> WORKER_ADVERTISED_HOST = string("scache.worker.advertised.host", "",
      "Host name other workers and clients use to reach this worker; empty means this machine's host name.");
  public static final ConfigEntry<Integer> WORKER_PORT = intEntry("scache.worker.rpc.port", 17020,
      "Port the worker listens on; 0 picks a free port.");
  public static final ConfigEntry<String> WORKER_MASTER_ADDRESS = hostPort("scache.worker.master.address",
      "localhost:17010", "host:port of the master the worker registers with.");
  public static final ConfigEntry<Long> WORKER_MEMORY_RESERVE = bytes("scache.worker.memory.reserve.bytes", "1g",
      "Off-heap memory reserved for shuffle blocks. A put that does not fit is refused with STORE_FULL.");
  public static final ConfigEntry<String> WORKER_MEMORY_DIR = string("scache.worker.memory.dir", "",
      "Directory of the memory-mapped files that back the reserve; empty means /dev/shm when it has room, else "
          + "the JVM's temporary directory. Files left by a crashed worker are removed at start.");
  public static final ConfigEntry<Long> WORKER_MEMORY_SEGMENT = bytes("scache.worker.memory.segment.bytes", "1g",
      "The reserve is mapped in segments of at most this size; a block must fit in one segment.");
  public static final ConfigEntry<Boolean> WORKER_MEMORY_PRETOUCH = bool("scache.worker.memory.pretouch", false,
      "Touch every page of the reserve at start, so the memory is resident before the first put.");
  public static final ConfigEntry<Integer> WORKER_REPORT_BATCH = intEntry("scache.worker.report.batch.size", 1024,
      "Block-size reports sent to the master in one message, at most.");
  public static final ConfigEntry<Duration> WORKER_REPORT_INTERVAL = duration("scache.worker.report.flush.interval",
      "50ms", "Longest time a block-size report waits before it is sent to the master.");
  public static final ConfigEntry<Duration> WORKER_FETCH_TIMEOUT = duration("scache.worker.fetch.timeout", "30s",
      "Timeout of a fetch from another worker and of a location lookup at the master.");

  // ---------------------------------------------------------------- client
  public static final ConfigEntry<String> CLIENT_MASTER_ADDRESS = hostPort("scache.client.master.address",
      "localhost:17010", "host:port of the SCache master.");
  public static final ConfigEntry<String> CLIENT_WORKER_ADDRESS = hostPort("scache.client.worker.address",
      "localhost:17020", "host:port of the worker on this node, which stores what is put and serves what is read.");
  public static final ConfigEntry<Duration> CLIENT_REQUEST_TIMEOUT = duration("scache.client.request.timeout", "60s",
      "Longest wait for an answer to one request; then the call fails with TIMEOUT.");
  public static final ConfigEntry<Integer> CLIENT_RETRY_MAX = intEntry("scache.client.retry.max.attempts", 3,
      "Tries of a call whose failure is transient (connection lost, timeout, busy), the first included.");
  public static final ConfigEntry<Duration> CLIENT_RETRY_BACKOFF = duration("scache.client.retry.backoff", "200ms",
      "Wait before the second try; doubled for each further try.");

  private ScacheOptions() {}

  /** Every declared entry, in declaration order. */
  public static List<ConfigEntry<?>> all() {
    return Collections.unmodifiableList(ALL);
  }

  private static <T> ConfigEntry<T> add(String key, String type, String def, String doc, Function<String, T> p) {
    ConfigEntry<T> e = new ConfigEntry<>(key, type, def, doc, p);
    e.parse(def.isEmpty() && !type.equals("string") ? "0" : def);
    ALL.add(e);
    return e;
  }

  private static ConfigEntry<Integer> intEntry(String key, int def, String doc) {
    return add(key, "int", Integer.toString(def), doc, Integer::parseInt);
  }

  private static ConfigEntry<Long> bytes(String key, String def, String doc) {
    return add(key, "bytes", def, doc, ValueParsers::bytes);
  }

  private static ConfigEntry<Integer> intBytes(String key, String def, String doc) {
    return add(key, "bytes", def, doc, t -> Math.toIntExact(ValueParsers.bytes(t)));
  }

  private static ConfigEntry<Duration> duration(String key, String def, String doc) {
    return add(key, "duration", def, doc, ValueParsers::duration);
  }

  private static ConfigEntry<Boolean> bool(String key, boolean def, String doc) {
    return add(key, "boolean", Boolean.toString(def), doc, ValueParsers::bool);
  }

  private static ConfigEntry<String> string(String key, String def, String doc) {
    return add(key, "string", def, doc, s -> s);
  }

  private static ConfigEntry<String> hostPort(String key, String def, String doc) {
    return add(key, "host:port", def, doc, ValueParsers::hostPort);
  }
}
