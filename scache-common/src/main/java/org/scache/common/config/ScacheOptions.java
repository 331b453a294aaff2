package org.scache.common.config;

import java.time.Duration;
import java.util.List;

/**
 * Every configuration key SCache reads, declared once with its type, default and documentation.
 * {@code docs/configuration.md} is generated from this list ({@link ConfigDocs}).
 */
public final class ScacheOptions {
  /** scache.&lt;role&gt;.&lt;subsystem&gt;.&lt;name&gt;. */
  private static final OptionSet OPTIONS = new OptionSet(ConfigEntry.KEY_PATTERN, "scache.<role>.<subsystem>.<name>");

  // ---------------------------------------------------------------- network
  public static final ConfigEntry<Integer> NETWORK_FRAME_META_MAX = intBytes("scache.network.frame.meta.max.bytes",
      "16m", "Largest frame metadata (everything but block data) a peer accepts; longer frames close the connection.");
  public static final ConfigEntry<Long> NETWORK_FRAME_PAYLOAD_MAX = bytes("scache.network.frame.payload.max.bytes",
      "1g", "Largest payload (block data) one frame may carry; also the largest block a put accepts.");
  public static final ConfigEntry<Duration> NETWORK_CONNECT_TIMEOUT = duration("scache.network.connect.timeout",
      "5s", "How long to wait for a TCP connection to a master or worker.");
  public static final ConfigEntry<Integer> NETWORK_IO_THREADS = intEntry("scache.network.io.threads", 0,
      "Netty event-loop threads per server or client; 0 means twice the number of cores.");
  public static final ConfigEntry<Integer> NETWORK_SERVER_CONNECTIONS_MAX = intEntry(
      "scache.network.server.connections.max", 8192, "Connections a master or worker keeps open at once. One more "
          + "closes the oldest connection that has not authenticated, to make room, or is answered LIMIT_EXCEEDED and "
          + "closed when all have. Keep it well below the daemon's open-file limit, which also covers spill files and "
          + "shared-memory segments.");
  public static final ConfigEntry<Integer> NETWORK_SERVER_CONNECTIONS_PER_ADDRESS_MAX = intEntry(
      "scache.network.server.connections.per.address.max", 1024, "Connections a master or worker keeps open from "
          + "one remote address. One more closes the address's oldest connection that has not authenticated, to "
          + "make room, or is answered LIMIT_EXCEEDED and closed when all have. A node's tasks all share its "
          + "address, so this bounds what one node can take of the daemon's connections.");
  public static final ConfigEntry<Duration> NETWORK_SERVER_IDLE_TIMEOUT = duration("scache.network.server.idle.timeout",
      "15m", "A connection to a master or worker on which nothing was read or written for this long is closed; "
          + "clients open a new one on their next call. Longer than any wait a request asks for.");
  public static final ConfigEntry<Integer> NETWORK_SERVER_CONNECTIONS_UNAUTHENTICATED_PER_ADDRESS_MAX = intEntry(
      "scache.network.server.connections.unauthenticated.per.address.max", 256, "Connections a master or worker "
          + "keeps open from one remote address that have not authenticated (no request whose proof verified has "
          + "passed on them); one more closes the oldest of them. Authenticated connections do not count here, so "
          + "connections that never authenticate hold at most this many of an address's "
          + "scache.network.server.connections.per.address.max, and the rest stay for the node's own tasks.");
  public static final ConfigEntry<Duration> NETWORK_SERVER_UNAUTHENTICATED_IDLE_TIMEOUT = duration(
      "scache.network.server.unauthenticated.idle.timeout", "10s", "A connection to a master or worker that has not "
          + "authenticated (no request whose proof verified has passed on it) is closed once nothing was read on it "
          + "for this long; after that scache.network.server.idle.timeout applies. Bounds how long a connection "
          + "that only took the greeting holds its slot.");
  public static final ConfigEntry<Integer> NETWORK_WRITE_BUFFER_LOW = intBytes("scache.network.write.buffer.low.bytes",
      "1m", "A connection that stopped being writable (see scache.network.write.buffer.high.bytes) is writable "
          + "again once the bytes queued to send on it fall below this.");
  public static final ConfigEntry<Integer> NETWORK_WRITE_BUFFER_HIGH = intBytes(
      "scache.network.write.buffer.high.bytes", "4m", "A connection with more than this many bytes queued to send "
          + "(answers a slow peer does not read, or requests a client sends faster than the network takes them) "
          + "is not writable: writers that respect it wait, which bounds the memory one connection's queue takes.");
  public static final ConfigEntry<Duration> NETWORK_HTTP_REQUEST_TIMEOUT = duration(
      "scache.network.http.request.timeout", "5s", "A request to a daemon's HTTP endpoint (status page, metrics) "
          + "whose line and headers have not all arrived this long after its first byte is answered 408 and its "
          + "connection closed, so half-sent requests cannot hold the endpoint.");
  public static final ConfigEntry<Duration> NETWORK_HTTP_IDLE_TIMEOUT = duration("scache.network.http.idle.timeout",
      "10s", "A connection to a daemon's HTTP endpoint on which nothing was read or written for this long is closed "
          + "(one that never sends a request, or does not read its answer).");
  public static final ConfigEntry<Integer> NETWORK_HTTP_CONNECTIONS_MAX = intEntry(
      "scache.network.http.connections.max", 64, "Connections a daemon's HTTP endpoint keeps open at once; one more "
          + "is answered 503 and closed.");
  public static final ConfigEntry<Integer> NETWORK_HTTP_CONNECTIONS_PER_ADDRESS_MAX = intEntry(
      "scache.network.http.connections.per.address.max", 16, "Connections a daemon's HTTP endpoint keeps open from "
          + "one remote address; one more is answered 503 and closed, so one host cannot take the endpoint.");
  public static final ConfigEntry<Integer> NETWORK_HTTP_THREADS = intEntry("scache.network.http.threads", 2,
      "Threads that build a daemon's HTTP answers (status page, metrics); requests are read and answers written "
          + "without them. At most eight times as many requests wait for a thread; more are answered 503.");

  // ---------------------------------------------------------------- security
  public static final ConfigEntry<String> SECURITY_CLUSTER_SECRET = string("scache.security.cluster.secret", "",
      "Secret shared by the master and all workers; signs the requests they send each other. Required by the "
          + "daemons: set the same value on every node and keep the file readable only by the SCache user.");

  public static final ConfigEntry<Boolean> SECURITY_PAYLOAD_DIGEST = bool("scache.security.payload.digest.enabled",
      false, "Signed requests cover their payload (block data put over a socket) through its SHA-256 digest, and "
          + "workers refuse a put without one or whose bytes do not match it: protection against a payload changed on "
          + "the network path. Set it alike on clients and workers. It costs a hash of each such payload on both "
          + "sides; puts through shared memory, reads and fetches are not affected. Replayed frames are refused either "
          + "way (docs/security.md).");

  public static final ConfigEntry<Boolean> SECURITY_APPLICATIONS_VOUCHED = bool(
      "scache.security.applications.vouched", false, "On the master: an application may register only once the "
          + "cluster vouched for it (a NodeManager's worker announced it, its user and its job's secret) or with a "
          + "submitter credential (scache.client.submitter.credential); others are refused AUTH_FAILED. Its quotas "
          + "are then its user's, shared by all the user's applications, so that registering more ids gives no "
          + "more of any limit. Off: an application nobody vouches for is its own user (docs/security.md).");
  public static final ConfigEntry<Duration> SECURITY_APPLICATIONS_VOUCH_WAIT = duration(
      "scache.security.applications.vouch.wait", "10s", "How long the master holds the registration of an "
          + "application not vouched for yet, waiting for its NodeManager's announcement, before refusing it (with "
          + "scache.security.applications.vouched). At most 1024 registrations wait at once; more are refused "
          + "LIMIT_EXCEEDED.");
  public static final ConfigEntry<String> SECURITY_SUBMITTER_SECRET = string("scache.security.submitter.secret", "",
      "On the master: the key submitter credentials are signed with (bin/scache submitter-credential makes one). "
          + "Empty: no submitter credential is accepted. Keep it readable only by the SCache user.");

  // ---------------------------------------------------------------- master
  public static final ConfigEntry<String> MASTER_BIND_HOST = string("scache.master.bind.host", "0.0.0.0",
      "Address the master listens on.");
  public static final ConfigEntry<Integer> MASTER_PORT = intEntry("scache.master.rpc.port", 17010,
      "Port the master listens on; 0 picks a free port.");
  public static final ConfigEntry<String> MASTER_HTTP_BIND_HOST = string("scache.master.http.bind.host", "0.0.0.0",
      "Address of the master's status page and Prometheus metrics; 127.0.0.1 keeps them on this machine. They show "
          + "application and shuffle ids, host names and sizes, never block data or secrets (docs/monitoring.md).");
  public static final ConfigEntry<Integer> MASTER_HTTP_PORT = intEntry("scache.master.http.port", 17011,
      "Port of the master's status page (/), its text form for bin/scache (/text/...) and Prometheus metrics "
          + "(/metrics); 0 picks a free port, -1 serves none. A port that cannot be bound is logged and skipped.");
  public static final ConfigEntry<Duration> MASTER_HEARTBEAT_INTERVAL = duration(
      "scache.master.worker.heartbeat.interval", "1s", "How often workers are told to send a heartbeat.");
  public static final ConfigEntry<Duration> MASTER_WORKER_EXPIRY = duration("scache.master.worker.expiry", "10s",
      "A worker without a heartbeat for this long is considered lost; its blocks are no longer located.");
  public static final ConfigEntry<Duration> MASTER_TOMBSTONE_TTL = duration("scache.master.application.tombstone.ttl",
      "1h", "How long a removed application is remembered, so that workers that missed the removal free its blocks.");
  public static final ConfigEntry<Double> MASTER_SCHEDULE_OBSERVATION_THRESHOLD = fraction(
      "scache.master.schedule.observation.threshold", 0.25, "Fraction of a shuffle's maps (at least one) that must "
          + "have finished before its reduces are predicted and placed; until then GET_SCHEDULE_RESULT answers "
          + "NOT_READY. Lower places earlier, leaving more map output to prefetch as it is produced, but fits the "
          + "prediction on fewer maps. A sampling shuffle is placed as soon as samples cover every map, whatever "
          + "this.");
  public static final ConfigEntry<Integer> MASTER_SCHEDULE_SLOTS_PER_WORKER = intEntry(
      "scache.master.schedule.slots.per.worker", 1, "Reduce tasks a worker's node runs at once; the round of a "
          + "placed reduce is its position among the reduces of its worker (by reduce id) divided by this.");
  public static final ConfigEntry<Boolean> MASTER_SCHEDULE_BALANCE_AT_MAP_END = bool(
      "scache.master.schedule.balance.at.map.end", true, "When the last map of a shuffle whose framework starts no "
          + "reduce before then (Spark) has ended, move reduces to even out what each worker's link still has to "
          + "carry, where the framework ran more maps on one node than foreseen. A move must lower the largest load by "
          + "5 %, and a worker gets at most one round of reduces more than an even share. Shuffles read in ranges of "
          + "reduces, and stages that read several shuffles, keep their placement.");

  public static final ConfigEntry<String> MASTER_STATE_DIR = string("scache.master.state.dir", "",
      "Directory, readable only by the master's user, where a master without ZooKeeper keeps applications (with "
          + "secrets) and shuffles (with placements), so that after a restart an application id still belongs to its "
          + "owner and each reduce is expected where it was placed. Empty: memory only; after a restart an id goes to "
          + "whoever registers it first. bin/scache-master sets $SCACHE_STATE_DIR/master unless set. Not used with "
          + "scache.master.zookeeper.quorum.");
  public static final ConfigEntry<Long> MASTER_SHUFFLE_STATE_MAX = bytes("scache.master.shuffle.state.max.bytes", "0",
      "Master memory the registered shuffles may take, by an estimate made when each is registered: 64 bytes per map "
          + "and per reduce, a bit per map x reduce, 4 bytes per reduce for each worker holding the shuffle's blocks "
          + "(one per map, at most 128), and for a sampled shuffle 24 bytes per map x reduce. A registration past it "
          + "is refused with LIMIT_EXCEEDED. 0 means half the master's heap.");
  public static final ConfigEntry<Double> MASTER_SHUFFLE_STATE_APPLICATION_SHARE = fraction(
      "scache.master.shuffle.state.application.share", 0.5, "Share of scache.master.shuffle.state.max.bytes one "
          + "user's shuffles may take (over all its applications; an application of no known user is its own "
          + "user), so that one user cannot keep another from registering.");
  public static final ConfigEntry<Integer> MASTER_APPLICATION_SECRET_MAX = intBytes(
      "scache.master.application.secret.max.bytes", "1k", "Longest secret an application may register with (a Spark "
          + "application's is 32 bytes, a Hadoop job token's password 20 to 64); a longer one is refused with "
          + "LIMIT_EXCEEDED. Bounds the master's memory per application and what a restarted master reads back; a "
          + "kept application whose secret is longer is skipped when the state is read back.");
  public static final ConfigEntry<Integer> MASTER_APPLICATIONS_MAX = intEntry("scache.master.applications.max",
      100_000, "Applications registered with the master at once (removed ones not counted); one more is refused "
          + "with LIMIT_EXCEEDED. With the secret limit, bounds the master's memory for applications and what a "
          + "restarted master reads back: kept applications past it are skipped.");
  public static final ConfigEntry<Integer> MASTER_APPLICATIONS_PER_USER_MAX = intEntry(
      "scache.master.applications.per.user.max", 256, "Applications one user may have registered at once (a user "
          + "as vouched for by the cluster or named by a submitter credential); one more is refused with "
          + "LIMIT_EXCEEDED until one is removed.");
  public static final ConfigEntry<Integer> MASTER_APPLICATIONS_REGISTRATIONS_PER_SECOND = intEntry(
      "scache.master.applications.registrations.per.second", 20, "New applications one principal may register per "
          + "second, in bursts of as many (a principal is the user, or the remote host when no user is known); "
          + "past it a registration is answered RETRY_LATER, so that a flood from one principal never delays "
          + "another's. Registering a known application again is not counted.");

  // ---------------------------------------------------------------- master high availability
  public static final ConfigEntry<String> MASTER_ZOOKEEPER_QUORUM = string("scache.master.zookeeper.quorum", "",
      "ZooKeeper ensemble (host:port,host:port,...) through which several masters elect one leader and keep the "
          + "state a new leader needs (applications, shuffles, placements); workers and clients find the leader "
          + "there. Set it alike on masters, workers and clients. Empty: one master, found at "
          + "scache.worker.master.address and scache.client.master.address (docs/high-availability.md).");
  public static final ConfigEntry<String> MASTER_ZOOKEEPER_ROOT = string("scache.master.zookeeper.root", "/scache",
      "ZooKeeper path under which the masters of one SCache cluster elect their leader and keep their state; "
          + "another cluster on the same ensemble needs another path.");
  public static final ConfigEntry<Duration> MASTER_ZOOKEEPER_SESSION_TIMEOUT = duration(
      "scache.master.zookeeper.session.timeout", "10s", "ZooKeeper session timeout of masters, workers and "
          + "clients. A leader that dies without closing its session is replaced this long after its death; a "
          + "leader cut from ZooKeeper for this long stops leading. The ensemble bounds it (2 to 20 ticks).");
  public static final ConfigEntry<String> MASTER_ZOOKEEPER_AUTH = string("scache.master.zookeeper.auth", "",
      "user:password of the ZooKeeper digest identity the masters authenticate as and to which every node they "
          + "create belongs: the kept state (application secrets among it) is readable by it alone, the root, the "
          + "election and the leader's record are readable by all and writable by it alone. Set it alike on every "
          + "master. Empty: an identity derived from scache.security.cluster.secret (user 'scache').");
  public static final ConfigEntry<String> MASTER_ADVERTISED_HOST = string("scache.master.advertised.host", "",
      "Host name workers and clients use to reach this master when it leads, published in ZooKeeper with the port "
          + "it listens on; empty means this machine's host name.");
  public static final ConfigEntry<Duration> CLIENT_MASTER_FAILOVER_WAIT = duration(
      "scache.client.master.failover.wait", "60s", "With scache.master.zookeeper.quorum set: how long a call the "
          + "master must answer keeps being tried while no master leads or the leader cannot be reached (a "
          + "failover takes up to scache.master.zookeeper.session.timeout plus a heartbeat), before it fails.");

  // ---------------------------------------------------------------- worker
  public static final ConfigEntry<String> WORKER_ID = string("scache.worker.identity.id", "",
      "Identity of this worker; empty means advertised-host:port. Must differ between workers that share a host.");
  public static final ConfigEntry<String> WORKER_BIND_HOST = string("scache.worker.bind.host", "0.0.0.0",
      "Address the worker listens on.");
  public static final ConfigEntry<String> WORKER_ADVERTISED_HOST = string("scache.worker.advertised.host", "",
      "Host name other workers and clients use to reach this worker; empty means this machine's host name.");
  public static final ConfigEntry<Integer> WORKER_PORT = intEntry("scache.worker.rpc.port", 17020,
      "Port the worker listens on; 0 picks a free port.");
  public static final ConfigEntry<String> WORKER_HTTP_BIND_HOST = string("scache.worker.http.bind.host", "0.0.0.0",
      "Address of the worker's Prometheus metrics; 127.0.0.1 keeps them on this machine.");
  public static final ConfigEntry<Integer> WORKER_HTTP_PORT = intEntry("scache.worker.http.port", 17021,
      "Port of the worker's Prometheus metrics (/metrics); 0 picks a free port, -1 serves none. A port that cannot "
          + "be bound (another worker on the host has it) is logged and skipped; the worker serves blocks either way.");
  public static final ConfigEntry<String> WORKER_MASTER_ADDRESS = hostPort("scache.worker.master.address",
      "localhost:17010", "host:port of the master the worker registers with.");
  public static final ConfigEntry<Long> WORKER_MEMORY_RESERVE = bytes("scache.worker.memory.reserve.bytes", "1g",
      "Off-heap memory reserved for shuffle blocks; the worker never holds more block data in memory. A put that "
          + "does not fit spills blocks to disk (scache.worker.spill.*), or is refused with STORE_FULL when spilling "
          + "is off.");
  public static final ConfigEntry<String> WORKER_MEMORY_DIR = string("scache.worker.memory.dir", "",
      "Directory of the memory-mapped files that back the reserve; empty means /dev/shm when it has room, else "
          + "the JVM's temporary directory. Files left by a crashed worker are removed at start.");
  public static final ConfigEntry<Long> WORKER_MEMORY_SEGMENT = bytes("scache.worker.memory.segment.bytes", "1g",
      "The reserve is mapped in segments of at most this size; a block must fit in one segment.");
  public static final ConfigEntry<Boolean> WORKER_MEMORY_PRETOUCH = bool("scache.worker.memory.pretouch", false,
      "Touch every page of the reserve at start, so the memory is resident before the first put.");
  public static final ConfigEntry<Integer> WORKER_BLOCKS_MAX = intEntry("scache.worker.blocks.max", 0,
      "Blocks a worker holds at most, in memory and on disk, whatever their size (each costs heap for its entries; "
          + "an empty block too); one more is refused with LIMIT_EXCEEDED. 0 derives the limit from the heap and "
          + "counts the heap the entries take instead, in units of 32 bytes: a block 1 (about 25 bytes; 4 under the "
          + "lru spill policy, which gives each block an entry of its own), and each map attempt with a block held "
          + "4 more (about 110 bytes), half the heap in all (4194304 units with -Xmx256m: as many blocks of a wide "
          + "shuffle, 838860 of maps of one block each).");
  public static final ConfigEntry<Double> WORKER_BLOCKS_APPLICATION_SHARE = fraction(
      "scache.worker.blocks.application.share", 0.5, "Share of scache.worker.blocks.max one user may hold on a "
          + "worker over all its applications (an application of no known user is its own user), so that one "
          + "user's blocks cannot keep another's out.");
  public static final ConfigEntry<Double> WORKER_LOCAL_LEASE_APPLICATION_SHARE = fraction(
      "scache.worker.local.lease.application.share", 0.5, "Share of the reserve one user may hold in "
          + "shared-memory leases not yet committed as blocks, over all its applications and connections (an "
          + "application of no known user is its own user); a lease past it is "
          + "refused with LIMIT_EXCEEDED and the client puts over the socket.");
  public static final ConfigEntry<Duration> WORKER_LOCAL_LEASE_TIMEOUT = duration("scache.worker.local.lease.timeout",
      "60s", "A shared-memory lease on which nothing was committed for this long is taken back (clients give unused "
          + "leases back after scache.client.local.shm.lease.idle.timeout); a later commit on it is refused and the "
          + "client puts that block over the socket.");
  public static final ConfigEntry<Integer> WORKER_LOCAL_LEASES_PER_CONNECTION_MAX = intEntry(
      "scache.worker.local.leases.per.connection.max", 64, "Shared-memory leases one connection may hold at once "
          + "(a client holds one or two).");
  public static final ConfigEntry<Double> WORKER_PUT_INFLIGHT_APPLICATION_SHARE = fraction(
      "scache.worker.put.inflight.application.share", 0.5, "Share of the reserve one user may hold in socket "
          + "puts announced and not yet complete, over all its applications and connections (an application of no "
          + "known user is its own user); a put past it is answered RETRY_LATER (the client backs off and tries "
          + "again), so puts that never finish cannot take the reserve from others. An application's only put in "
          + "flight is let through whatever its size.");
  public static final ConfigEntry<Long> WORKER_PUT_INFLIGHT_CONNECTION_MAX = bytes(
      "scache.worker.put.inflight.connection.max.bytes", "256m", "Bytes of socket puts announced and not yet "
          + "complete one connection may hold; a put past it is answered RETRY_LATER, except the connection's only "
          + "put in flight (which scache.network.frame.payload.max.bytes bounds).");
  public static final ConfigEntry<Duration> WORKER_PUT_STALL_TIMEOUT = duration("scache.worker.put.stall.timeout",
      "30s", "A socket put whose payload gets no byte for this long, while the worker reads its connection, is "
          + "aborted: its memory goes back to the reserve, it is answered TIMEOUT and the connection is closed.");
  public static final ConfigEntry<Boolean> WORKER_LOCAL_SHM_ENABLED = bool("scache.worker.local.shm.enabled", true,
      "Let clients on this host (same unix user) map the reserve's segment files and put and get blocks with a "
          + "memory copy. The files stay in the memory directory, readable only by their owner, while the worker "
          + "runs; false unlinks them right after mapping and serves every client over its socket.");
  public static final ConfigEntry<Integer> WORKER_REPORT_BATCH = intEntry("scache.worker.report.batch.size", 1024,
      "Block-size reports sent to the master in one message, at most.");
  public static final ConfigEntry<Duration> WORKER_REPORT_INTERVAL = duration("scache.worker.report.flush.interval",
      "50ms", "Longest time a block-size report waits before it is sent to the master.");
  public static final ConfigEntry<Duration> WORKER_FETCH_TIMEOUT = duration("scache.worker.fetch.timeout", "30s",
      "Timeout of a fetch from another worker and of a location lookup at the master.");
  public static final ConfigEntry<Duration> WORKER_REDUCE_INPUT_WAIT = duration(
      "scache.worker.reduce.input.wait.timeout", "30s", "Longest time a read of a reduce's whole input waits for "
          + "every map to finish; then it fails with INPUT_INCOMPLETE. Keep it below the client request timeout.");
  public static final ConfigEntry<Long> WORKER_FETCH_RECEIVE_BUFFER = bytes(
      "scache.worker.fetch.receive.buffer.bytes", "0", "Receive buffer (SO_RCVBUF) of this worker's connections to "
          + "other workers, which bring it prefetched and remotely read blocks. A bound keeps each connection's bytes "
          + "in flight, and so its queue at a shared link, small, so that connections sharing a link with deep "
          + "queues get equal shares. It also caps a connection at about this many bytes per round trip: keep it "
          + "above the links' bandwidth-delay product. 0 derives it from scache.worker.network.link.mbit when that "
          + "is set, and otherwise leaves it to the kernel's autotuning.");
  public static final ConfigEntry<Integer> WORKER_NETWORK_LINK_MBIT = intEntry("scache.worker.network.link.mbit", 0,
      "How fast this node's network link is, in Mbit/s; 0 if not known. Known, and with "
          + "scache.worker.fetch.receive.buffer.bytes at 0, the receive buffer of each new connection to another "
          + "worker is twice the link's bandwidth-delay product over the shortest round trip to the master timed so "
          + "far, at least 64 KiB and at most 16 MiB; a connection opened before the first round trip is timed is "
          + "left to the kernel's autotuning.");
  public static final ConfigEntry<Boolean> WORKER_PREFETCH_ENABLED = bool("scache.worker.prefetch.enabled", true,
      "Copy the blocks of the reduces the master placed on this worker here as soon as they are known.");
  public static final ConfigEntry<Integer> WORKER_PREFETCH_MAX_INFLIGHT = intEntry(
      "scache.worker.prefetch.max.inflight", 4, "Prefetch fetches from other workers in flight at once, at most.");
  public static final ConfigEntry<Integer> WORKER_PREFETCH_MAX_INFLIGHT_PER_WORKER = intEntry(
      "scache.worker.prefetch.max.inflight.per.worker", 2, "Prefetch fetches in flight from any one other worker, at "
          + "most; the next fetch goes to the worker with the fewest. One worker's answers share one connection: a "
          + "second fetch keeps it busy while the first lands, more would only wait behind them while another "
          + "worker's link to this one idles.");
  public static final ConfigEntry<Long> WORKER_PREFETCH_BATCH = bytes("scache.worker.prefetch.batch.bytes", "256k",
      "Largest number of bytes one prefetch fetch asks a worker for; a single larger block is fetched alone. A fetch's "
          + "blocks land here only once its whole answer has arrived, so a reduce waiting for its first blocks waits "
          + "for their whole batch: on a 40 Mbit/s link shared by two fetches 0.1 s for 256 KiB, 3.4 s for 8 MiB, "
          + "during which the reduce cannot start on what has come. With two fetches in flight per worker, a batch "
          + "keeps the link busy as long as it takes longer than a round trip. Larger batches cost fewer fetches.");
  public static final ConfigEntry<Long> WORKER_PREFETCH_BANDWIDTH = bytes("scache.worker.prefetch.bandwidth.bytes",
      "0", "Prefetch bandwidth limit of this worker in bytes per second; 0 means unlimited.");

  public static final ConfigEntry<Boolean> WORKER_SPILL_ENABLED = bool("scache.worker.spill.enabled", true,
      "When a put does not fit the reserve, move other blocks to local disk to make room, chosen by "
          + "scache.worker.spill.policy, and load them back when memory frees. False: such a put is refused with "
          + "STORE_FULL.");
  public static final ConfigEntry<String> WORKER_SPILL_DIRS = string("scache.worker.spill.dirs", "",
      "Comma-separated directories spilled blocks are written to, one file after another in turn; empty means "
          + "scache-spill under the JVM's temporary directory. Spill files of this worker left by an earlier run "
          + "are removed at start.");
  public static final ConfigEntry<Long> WORKER_SPILL_CAPACITY = bytes("scache.worker.spill.capacity.bytes", "0",
      "Most bytes of spill files this worker keeps on disk in all its spill directories together; 0 means no "
          + "bound but the disks' free space. When neither memory nor this capacity can take a put, the put is "
          + "answered RETRY_LATER and the client backs off.");
  public static final ConfigEntry<Long> WORKER_SPILL_FILE_SIZE = bytes("scache.worker.spill.file.bytes", "256m",
      "Spilled blocks are appended to files of up to this size (a larger block gets a file of its own); a file is "
          + "deleted when none of its blocks is live any more.");
  public static final ConfigEntry<Long> WORKER_SPILL_READ_BUFFER = bytes("scache.worker.spill.read.buffer.bytes",
      "64m", "Most bytes of spilled blocks read from disk and not yet sent on, outside the reserve; further reads "
          + "wait. A single larger block is read alone.");
  public static final ConfigEntry<String> WORKER_SPILL_POLICY = string("scache.worker.spill.policy", "context-aware",
      "How spill victims are chosen: context-aware (paper IV-B: read blocks first, then rounds some worker keeps "
          + "only in part, then later-submitted shuffles and later rounds) or lru (least recently used first; a "
          + "baseline for comparison).");

  // ---------------------------------------------------------------- client
  public static final ConfigEntry<String> CLIENT_MASTER_ADDRESS = hostPort("scache.client.master.address",
      "localhost:17010", "host:port of the SCache master.");
  public static final ConfigEntry<String> CLIENT_WORKER_ADDRESS = hostPort("scache.client.worker.address",
      "localhost:17020", "host:port of the worker on this node, which stores what is put and serves what is read.");
  public static final ConfigEntry<String> CLIENT_SUBMITTER_CREDENTIAL = string("scache.client.submitter.credential",
      "", "A submitter credential the operator handed this application's submitter (user:expiry:signature, from "
          + "bin/scache submitter-credential), sent when the application registers: where no NodeManager vouches for "
          + "applications (Spark standalone), the master registers the application as that user. Empty: none.");
  public static final ConfigEntry<Duration> CLIENT_REQUEST_TIMEOUT = duration("scache.client.request.timeout", "60s",
      "Longest wait for an answer to one request; then the call fails with TIMEOUT.");
  public static final ConfigEntry<Integer> CLIENT_RETRY_MAX = intEntry("scache.client.retry.max.attempts", 3,
      "Tries of a call whose failure is transient (connection lost, timeout, busy), the first included.");
  public static final ConfigEntry<Duration> CLIENT_RETRY_BACKOFF = duration("scache.client.retry.backoff", "200ms",
      "Wait before the second try; doubled for each further try.");
  public static final ConfigEntry<Duration> CLIENT_RETRY_BACKOFF_MAX = duration("scache.client.retry.backoff.max",
      "2s", "Longest wait between two tries of a put the worker answered RETRY_LATER (its memory and spill disk "
          + "are both full); the wait doubles from scache.client.retry.backoff up to this.");
  public static final ConfigEntry<Duration> CLIENT_RETRY_BUSY_TIMEOUT = duration("scache.client.retry.busy.timeout",
      "10m", "How long a call answered RETRY_LATER keeps being tried, backing off, before it fails with "
          + "RETRY_LATER; a map waits this long for a full worker to free memory or disk.");
  public static final ConfigEntry<Duration> CLIENT_PUT_REDIRECT_BUSY = duration("scache.client.put.redirect.busy",
      "30s", "How long a map's put that the node's worker answers RETRY_LATER (its memory and spill disk full) "
          + "is tried there before the block goes to another live worker, as a put refused for the worker's block "
          + "limits does at once; at most scache.client.retry.busy.timeout.");
  public static final ConfigEntry<Boolean> CLIENT_LOCAL_SHM_ENABLED = bool("scache.client.local.shm.enabled", true,
      "Put and get blocks through the node worker's shared memory when it allows it and runs on this host as the "
          + "same user; otherwise, or when false, every block goes over the socket.");
  public static final ConfigEntry<Long> CLIENT_LOCAL_SHM_LEASE = bytes("scache.client.local.shm.lease.bytes", "64m",
      "Worker memory a client reserves at a time to copy blocks into (at most an eighth of a segment); a larger "
          + "block gets a lease of its own. Unused parts go back to the worker when the client closes.");
  public static final ConfigEntry<Duration> CLIENT_LOCAL_SHM_LEASE_IDLE = duration(
      "scache.client.local.shm.lease.idle.timeout", "200ms",
      "A lease no put has used for this long goes back to the worker, so an idle client holds none of its memory.");
  public static final ConfigEntry<Long> CLIENT_READ_PART_BUFFERS = bytes("scache.client.read.part.buffers.bytes",
      "64m", "Direct memory (outside the heap) a client lends, at most at a time, to copies of reduce-input blocks "
          + "read in parts or in place that are not in this node's shared memory (spilled, or fetched from another "
          + "node), each reused once its block is released; blocks past it are copied to the heap. More keeps more "
          + "copies off the heap at the cost of that much direct memory; on YARN it counts against the container's "
          + "memory overhead.");

  private ScacheOptions() {}

  /** Every declared entry, in declaration order. */
  public static List<ConfigEntry<?>> all() {
    return OPTIONS.all();
  }

  private static ConfigEntry<Integer> intEntry(String key, int def, String doc) {
    return OPTIONS.intEntry(key, def, doc);
  }

  private static ConfigEntry<Long> bytes(String key, String def, String doc) {
    return OPTIONS.bytes(key, def, doc);
  }

  private static ConfigEntry<Integer> intBytes(String key, String def, String doc) {
    return OPTIONS.intBytes(key, def, doc);
  }

  private static ConfigEntry<Duration> duration(String key, String def, String doc) {
    return OPTIONS.duration(key, def, doc);
  }

  private static ConfigEntry<Double> fraction(String key, double def, String doc) {
    return OPTIONS.fraction(key, def, doc);
  }

  private static ConfigEntry<Boolean> bool(String key, boolean def, String doc) {
    return OPTIONS.bool(key, def, doc);
  }

  private static ConfigEntry<String> string(String key, String def, String doc) {
    return OPTIONS.string(key, def, doc);
  }

  private static ConfigEntry<String> hostPort(String key, String def, String doc) {
    return OPTIONS.hostPort(key, def, doc);
  }
}
