package org.scache.worker;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What each figure of a worker's stats ({@link ScacheWorker#stats()}, {@code GET_WORKER_STATS}) means,
 * and whether it only rises (a counter since the worker started) or goes up and down (a gauge): the one
 * description the Prometheus endpoint, Hadoop's metrics2 and docs/monitoring.md share.
 */
public final class WorkerStatsCatalog {
  /** One figure: its meaning, and whether it is a counter. */
  public record Entry(boolean counter, String help) {}

  private static final Map<String, Entry> ENTRIES = new LinkedHashMap<>();

  static {
    counter("put.blocks", "Blocks stored by puts (socket and shared memory).");
    counter("put.bytes", "Bytes stored by puts.");
    counter("put.duplicates", "Puts of a block already stored (a retried put), answered without storing again.");
    counter("put.refused", "Puts refused (store full, block too large, limits).");
    counter("put.busy", "Puts answered RETRY_LATER while memory was being freed, or past the bytes their "
        + "application or connection may hold in puts in flight.");
    counter("put.stalled", "Socket puts aborted because their payload stalled (scache.worker.put.stall.timeout); "
        + "their connections were closed.");
    counter("read.local.blocks", "Blocks read by reduces from this worker's memory or spill.");
    counter("read.local.bytes", "Bytes read by reduces from this worker's memory or spill.");
    counter("read.remote.blocks", "Blocks a reduce here had to fetch from another worker at read time.");
    counter("read.remote.bytes", "Bytes a reduce here had to fetch from another worker at read time.");
    counter("read.prefetched.blocks", "Blocks read here that had been prefetched here.");
    counter("read.inputs.located.here", "Reduce inputs read without asking the master where their blocks are: the "
        + "reader named the final attempt of every map, and this worker held all their blocks.");
    counter("fetch.served.blocks", "Blocks sent to other workers (their prefetches and remote reads).");
    counter("fetch.served.bytes", "Bytes sent to other workers.");
    counter("auth.failures", "Requests refused for a missing or wrong signature.");
    counter("limit.refusals", "Blocks, leases and connections refused at a limit.");
    counter("local.leases.expired", "Shared-memory leases taken back after going uncommitted too long.");
    counter("prefetch.blocks", "Blocks copied here ahead of their reduce.");
    counter("prefetch.bytes", "Bytes copied here ahead of their reduce.");
    counter("prefetch.fetches", "Fetches made to prefetch blocks.");
    counter("prefetch.failures", "Prefetch fetches that failed (the blocks are read from their holder later).");
    counter("prefetch.skipped.blocks", "Prefetched blocks not kept (no room, or their shuffle was removed).");
    counter("prefetch.dropped.blocks", "Blocks queued to be prefetched here and dropped before their copy: their "
        + "reduce moved to another worker, or their application reads their shuffle where its maps ran.");
    gauge("prefetch.backlog.blocks", "Blocks queued to be prefetched here and not yet asked for.");
    gauge("prefetch.backlog.bytes", "Bytes queued to be prefetched here and not yet asked for: how far prefetch lags.");
    gauge("prefetch.inflight", "Prefetch fetches under way.");
    counter("shm.opened", "Client connections that opened the shared memory (a process on this host that puts or "
        + "reads through it opens it once per connection, a Spark executor before its first task).");
    counter("shm.commit.blocks", "Blocks put through shared memory.");
    counter("shm.pin.blocks", "Blocks read through shared memory.");
    counter("spill.blocks", "Blocks written to spill files.");
    counter("spill.bytes", "Bytes written to spill files.");
    counter("spill.refused", "Blocks that could not be spilled (spill space full).");
    counter("spill.on.put.blocks", "Blocks spilled to make room for a put.");
    counter("spill.reloaded.blocks", "Spilled blocks loaded back into memory.");
    counter("spill.reloaded.bytes", "Spilled bytes loaded back into memory.");
    counter("spill.read.blocks", "Blocks read straight from spill files.");
    counter("spill.read.bytes", "Bytes read straight from spill files.");
    counter("spill.checksum.failures", "Spilled blocks whose checksum failed on reading (reported lost).");
    counter("spill.compacted.blocks", "Live blocks moved out of sparse spill files.");
    counter("copies.dropped", "Prefetched copies dropped to make room.");
    counter("commit.freed.blocks", "Blocks freed because the reduce that read them committed.");
    gauge("store.blocks", "Blocks held, in memory or spilled.");
    gauge("store.bytes", "Bytes held, in memory or spilled.");
    gauge("store.memory.bytes", "Bytes of blocks held in memory.");
    gauge("store.spilled.blocks", "Blocks held in spill files.");
    gauge("store.spilled.bytes", "Bytes of blocks held in spill files.");
    gauge("spill.file.bytes", "Bytes of spill files on disk.");
    gauge("spill.file.dead.bytes", "Bytes of spill files that belong to blocks already freed.");
    gauge("spill.files", "Spill files on disk.");
    gauge("spill.read.buffer.bytes", "Memory used to read spilled blocks.");
    gauge("rounds.incomplete.here", "Placement rounds this worker keeps only in part.");
    gauge("rounds.incomplete.cluster", "Placement rounds some worker keeps only in part.");
    gauge("memory.used.bytes", "Reserved memory in use.");
    gauge("memory.reserved.bytes", "Memory reserved for blocks.");
    gauge("connections.open", "Connections open to this worker.");
    counter("connections.refused", "Connections refused at a limit.");
    counter("connections.idle.closed", "Connections closed for being idle.");
    gauge("network.master.round.trip.micros", "The shortest round trip to the master timed so far (a request on an "
        + "open connection and its answer), in microseconds; -1 before the first.");
    gauge("fetch.receive.buffer.bytes", "The receive buffer a new connection to another worker gets "
        + "(scache.worker.fetch.receive.buffer.bytes, or derived from scache.worker.network.link.mbit and the round "
        + "trip above); 0: the kernel's autotuning.");
  }

  private WorkerStatsCatalog() {}

  private static void counter(String key, String help) {
    ENTRIES.put(key, new Entry(true, help));
  }

  private static void gauge(String key, String help) {
    ENTRIES.put(key, new Entry(false, help));
  }

  /** The description of a stats key; an undescribed key is a gauge. */
  public static Entry of(String key) {
    return ENTRIES.getOrDefault(key, new Entry(false, "Worker figure " + key + "."));
  }

  /** Every described key, in the order of the docs. */
  public static Map<String, Entry> all() {
    return java.util.Collections.unmodifiableMap(ENTRIES);
  }

  /** The name of a stats key in Hadoop's metrics2 style: {@code read.remote.bytes} as {@code ReadRemoteBytes}. */
  public static String metrics2Name(String key) {
    StringBuilder b = new StringBuilder(key.length());
    for (String part : key.split("\\.")) {
      if (!part.isEmpty()) {
        b.append(Character.toUpperCase(part.charAt(0))).append(part, 1, part.length());
      }
    }
    return b.toString();
  }

  /** The Prometheus name of a stats key, without the counter's {@code _total}. */
  public static String prometheusName(String key) {
    return "scache_worker_" + key.replace('.', '_');
  }
}
