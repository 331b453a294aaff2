package org.scache.common.protocol;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Objects;
import org.scache.common.BlockId;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.BlockLocation;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.MapSample;
import org.scache.common.shuffle.ReduceMove;
import org.scache.common.shuffle.RoundState;
import org.scache.common.shuffle.ShuffleActivity;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;

/**
 * Every request and answer SCache sends. Messages are plain values; {@link MessageCodec} is the one
 * place that knows how they look on the wire. Bulk bytes (block data) travel beside a message as
 * the frame's payload, never inside it.
 */
public sealed interface Message {

  MessageType type();

  // ---------------------------------------------------------------- requests

  /** A request that acts for one application: only it, or a daemon on its behalf, may send it ({@link MaySend}). */
  interface ForApplication {
    /** The application the request acts for. */
    String appId();
  }

  /** Worker to master: here I am, with this much memory reserved and used. */
  record RegisterWorker(WorkerInfo worker, long reservedBytes, long usedBytes) implements Message {
    public MessageType type() {
      return MessageType.REGISTER_WORKER;
    }
  }

  /** Worker to master, periodically; lists the applications it holds blocks of. */
  record Heartbeat(String workerId, long reservedBytes, long usedBytes, long blockCount, List<String> heldApps)
      implements Message {
    public Heartbeat {
      heldApps = List.copyOf(heldApps);
    }

    public MessageType type() {
      return MessageType.HEARTBEAT;
    }
  }

  /** Worker to master: the sizes of blocks it has stored, in batches. */
  record ReportBlocks(String workerId, List<BlockSize> blocks) implements Message {
    public ReportBlocks {
      blocks = List.copyOf(blocks);
    }

    public MessageType type() {
      return MessageType.REPORT_BLOCKS;
    }
  }

  /** Registers an application and the secret every later request of it is signed with. */
  record RegisterApplication(String appId, byte[] secret) implements Message, ForApplication {
    public RegisterApplication {
      secret = secret.clone();
    }

    @Override
    public byte[] secret() {
      return secret.clone();
    }

    public MessageType type() {
      return MessageType.REGISTER_APPLICATION;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof RegisterApplication r && r.appId.equals(appId) && Arrays.equals(r.secret, secret);
    }

    @Override
    public int hashCode() {
      return Objects.hash(appId, Arrays.hashCode(secret));
    }

    @Override
    public String toString() {
      return "RegisterApplication[appId=" + appId + ", secret=<" + secret.length + " bytes>]";
    }
  }

  /** Registers a shuffle: its shape and what prediction and placement need. */
  record RegisterShuffle(ShuffleSpec shuffle) implements Message, ForApplication {
    public RegisterShuffle {
      Objects.requireNonNull(shuffle, "shuffle");
    }

    public String appId() {
      return shuffle.appId();
    }

    public MessageType type() {
      return MessageType.REGISTER_SHUFFLE;
    }
  }

  /** A map attempt has put all its blocks; it is the map's final attempt. */
  record MapFinished(String appId, int shuffleId, int mapId, int attempt) implements Message, ForApplication {
    public MessageType type() {
      return MessageType.MAP_FINISHED;
    }
  }

  record GetScheduleResult(String appId, int shuffleId) implements Message, ForApplication {
    public MessageType type() {
      return MessageType.GET_SCHEDULE_RESULT;
    }
  }

  record UnregisterShuffle(String appId, int shuffleId) implements Message, ForApplication {
    public MessageType type() {
      return MessageType.UNREGISTER_SHUFFLE;
    }
  }

  record RemoveApplication(String appId) implements Message, ForApplication {
    public MessageType type() {
      return MessageType.REMOVE_APPLICATION;
    }
  }

  record ListWorkers() implements Message {
    public MessageType type() {
      return MessageType.LIST_WORKERS;
    }
  }

  /** Worker to master (cluster principal only): the secret of an application. */
  record FetchAppSecret(String appId) implements Message {
    public MessageType type() {
      return MessageType.FETCH_APP_SECRET;
    }
  }

  /**
   * Worker to master: where the final-attempt blocks of one reduce are; {@code mapId} −1 asks for
   * every finished map, otherwise for that map only.
   */
  record LocateBlocks(String appId, int shuffleId, int reduceId, int mapId) implements Message, ForApplication {
    public MessageType type() {
      return MessageType.LOCATE_BLOCKS;
    }
  }

  /** Stores the frame's payload as this block. */
  record PutBlock(BlockId blockId) implements Message, ForApplication {
    @Override
    public String appId() {
      return blockId.appId();
    }

    public MessageType type() {
      return MessageType.PUT_BLOCK;
    }
  }

  /** Reads one block from wherever it is stored. */
  record GetBlock(BlockId blockId) implements Message, ForApplication {
    @Override
    public String appId() {
      return blockId.appId();
    }

    public MessageType type() {
      return MessageType.GET_BLOCK;
    }
  }

  /**
   * Reads every final-attempt block of one reduce partition. The worker waits up to {@code
   * waitMillis} for every map to finish: {@link #WORKER_DEFAULT_WAIT} uses its configured wait, 0
   * answers at once with the maps finished so far (a partial answer).
   */
  record GetReduceInput(String appId, int shuffleId, int reduceId, long waitMillis) implements Message, ForApplication {
    /** Asks the worker to wait as long as it is configured to. */
    public static final long WORKER_DEFAULT_WAIT = -1;

    /** Waits for a complete input, as long as the worker is configured to. */
    public GetReduceInput(String appId, int shuffleId, int reduceId) {
      this(appId, shuffleId, reduceId, WORKER_DEFAULT_WAIT);
    }

    public MessageType type() {
      return MessageType.GET_REDUCE_INPUT;
    }
  }

  /** Worker to worker: the blocks stored on the answering worker itself, in this order. */
  record FetchBlocks(List<BlockId> blockIds) implements Message {
    public FetchBlocks {
      blockIds = List.copyOf(blockIds);
    }

    public MessageType type() {
      return MessageType.FETCH_BLOCKS;
    }
  }

  record GetWorkerStats() implements Message {
    public MessageType type() {
      return MessageType.GET_WORKER_STATS;
    }
  }

  /** Framework to master, before or during the map stage: sampling results of some maps. */
  record ReportSamples(String appId, int shuffleId, List<MapSample> samples) implements Message, ForApplication {
    public ReportSamples {
      samples = List.copyOf(samples);
    }

    public MessageType type() {
      return MessageType.REPORT_SAMPLES;
    }
  }


  /**
   * Master to workers (cluster principal): a shuffle's reduces are placed; each worker prefetches
   * the blocks of the reduces placed on it and of the reduces moved to it. The shuffle's submission
   * time orders shuffles when a worker chooses what to spill (later submitted, spilled first).
   */
  record ShuffleScheduled(ShufflePlacement placement, List<ReduceMove> moves, long submissionTimeMillis)
      implements Message {
    public ShuffleScheduled {
      Objects.requireNonNull(placement, "placement");
      moves = List.copyOf(moves);
    }

    public MessageType type() {
      return MessageType.SHUFFLE_SCHEDULED;
    }
  }

  /**
   * Master to the worker a reduce is placed on (cluster principal): a map finished after the
   * schedule, and these of its final-attempt blocks, held by {@code holder}, belong to reduces
   * placed on the receiver.
   */
  record MapOutputReady(String appId, int shuffleId, int mapId, int attempt, WorkerInfo holder,
      List<BlockSize> blocks) implements Message {
    public MapOutputReady {
      blocks = List.copyOf(blocks);
    }

    public MessageType type() {
      return MessageType.MAP_OUTPUT_READY;
    }
  }

  // ---------------------------------------------------------------- local shared-memory access
  // A client on the worker's host maps the worker's segment files and moves block bytes with a
  // memory copy; these messages only reserve, adopt and pin ranges. Leases and pins belong to the
  // connection that took them and end with it.

  /** One segment file of a worker's reserve: its index in offsets the worker sends, its path, its size. */
  record LocalSegment(int index, String path, long size) {}

  /** Asks for the worker's segment files, to be mapped by a client on the same host. */
  record OpenLocal(String appId) implements Message, ForApplication {
    public MessageType type() {
      return MessageType.OPEN_LOCAL;
    }
  }

  /** Reserves a contiguous range of {@code bytes} for this connection to copy blocks into. */
  record LeaseMemory(String appId, long bytes) implements Message, ForApplication {
    public MessageType type() {
      return MessageType.LEASE_MEMORY;
    }
  }

  /**
   * Makes {@code [offset, offset + length)} of a lease (offsets within the lease's segment) the
   * bytes of the block; the range must lie in the lease and not overlap an earlier commit.
   */
  record CommitLeased(BlockId blockId, long leaseId, long offset, long length) implements Message, ForApplication {
    @Override
    public String appId() {
      return blockId.appId();
    }

    public MessageType type() {
      return MessageType.COMMIT_LEASED;
    }
  }

  /** Ends a lease: what was not committed goes back to the worker's reserve. */
  record ReleaseLease(long leaseId) implements Message {
    public MessageType type() {
      return MessageType.RELEASE_LEASE;
    }
  }

  /** Holds a block stored on this worker in place, so that the client can copy it out of the mapping. */
  record PinBlock(BlockId blockId) implements Message, ForApplication {
    @Override
    public String appId() {
      return blockId.appId();
    }

    public MessageType type() {
      return MessageType.PIN_BLOCK;
    }
  }

  /**
   * Reads one reduce partition's input as {@link GetReduceInput} does, over a connection that opened
   * the worker's shared memory ({@link OpenLocal}): the blocks the worker holds in that memory come
   * back pinned, to be copied out of the mapping and unpinned, the others (spilled, or fetched from
   * their holders for this read) in the answer's payload. No block crosses the socket that the
   * client can copy out of memory.
   */
  record PinReduceInput(String appId, int shuffleId, int reduceId, long waitMillis) implements Message,
      ForApplication {
    public MessageType type() {
      return MessageType.PIN_REDUCE_INPUT;
    }
  }

  /**
   * The next part of a reduce partition's input, read as its blocks land on the worker, over a
   * connection that opened the worker's shared memory: the final blocks of the maps not in
   * {@code haveMaps} that the worker holds now, pinned as for {@link PinReduceInput}; when it holds
   * none, the first to land of those on their way to it; when none lands within the worker's fetch
   * timeout, all the rest, fetched from their holders. The maps are waited for as
   * {@link GetReduceInput} waits. An answer without blocks means the client has the whole input.
   */
  record PinReduceInputPart(String appId, int shuffleId, int reduceId, long waitMillis, List<Integer> haveMaps)
      implements Message, ForApplication {
    public PinReduceInputPart {
      haveMaps = List.copyOf(haveMaps);
    }

    public MessageType type() {
      return MessageType.PIN_REDUCE_INPUT_PART;
    }
  }

  /** Lets go of pinned blocks. */
  record Unpin(List<Long> pinIds) implements Message {
    public Unpin {
      pinIds = List.copyOf(pinIds);
    }

    public MessageType type() {
      return MessageType.UNPIN;
    }
  }

  // ---------------------------------------------------------------- reserve, spill and read-once


  /** Worker to master: rounds this worker started or stopped keeping only in part (spilled from or reloaded). */
  record ReportRounds(String workerId, List<RoundState> rounds) implements Message {
    public ReportRounds {
      rounds = List.copyOf(rounds);
    }

    public MessageType type() {
      return MessageType.REPORT_ROUNDS;
    }
  }

  /**
   * Worker to master, with its heartbeats: what it holds on disk, and per shuffle what it prefetched and
   * read since the last report. Feeds the master's status page and metrics only.
   */
  record ReportWorkerActivity(String workerId, long spilledBytes, long spillFileBytes, List<ShuffleActivity> shuffles)
      implements Message {
    public ReportWorkerActivity {
      shuffles = List.copyOf(shuffles);
    }

    public MessageType type() {
      return MessageType.REPORT_WORKER_ACTIVITY;
    }
  }

  /**
   * Master to workers: every round of a shuffle that some worker keeps only in part; the receiver
   * replaces what it knew of the shuffle with this list and spills those rounds first.
   */
  record RoundsIncomplete(String appId, int shuffleId, List<Integer> rounds) implements Message {
    public RoundsIncomplete {
      rounds = List.copyOf(rounds);
    }

    public MessageType type() {
      return MessageType.ROUNDS_INCOMPLETE;
    }
  }

  /**
   * A reduce has committed its output: its input blocks are read for the last time and are freed
   * everywhere (client to master, then master to every worker).
   */
  record ReduceCommitted(String appId, int shuffleId, int reduceId) implements Message, ForApplication {
    public MessageType type() {
      return MessageType.REDUCE_COMMITTED;
    }
  }

  /** Worker to master: blocks this worker held and lost (a spilled copy failed its checksum). */
  record ReportLostBlocks(String workerId, List<BlockId> blockIds) implements Message {
    public ReportLostBlocks {
      blockIds = List.copyOf(blockIds);
    }

    public MessageType type() {
      return MessageType.REPORT_LOST_BLOCKS;
    }
  }

  // ---------------------------------------------------------------- answers

  /** The request succeeded and has nothing more to say. */
  record Ack() implements Message {
    public MessageType type() {
      return MessageType.ACK;
    }
  }

  record WorkerRegistered(long heartbeatIntervalMillis) implements Message {
    public MessageType type() {
      return MessageType.WORKER_REGISTERED;
    }
  }

  /** Answers a heartbeat with the held applications that have been removed. */
  record HeartbeatAck(List<String> removedApps) implements Message {
    public HeartbeatAck {
      removedApps = List.copyOf(removedApps);
    }

    public MessageType type() {
      return MessageType.HEARTBEAT_ACK;
    }
  }

  /** The placement of every reduce of a shuffle, and the name of the policy that made it. */
  record ScheduleResult(ShufflePlacement placement) implements Message {
    public ScheduleResult {
      Objects.requireNonNull(placement, "placement");
    }

    public MessageType type() {
      return MessageType.SCHEDULE_RESULT;
    }
  }

  record Workers(List<WorkerInfo> workers) implements Message {
    public Workers {
      workers = List.copyOf(workers);
    }

    public MessageType type() {
      return MessageType.WORKERS;
    }
  }

  /** The first frame on every connection, from the accepting side: the nonce signed requests cover. */
  record ServerHello(byte[] nonce) implements Message {
    public ServerHello {
      if (nonce.length != ChannelBinding.NONCE_LENGTH) {
        throw new IllegalArgumentException("a connection nonce has " + ChannelBinding.NONCE_LENGTH + " bytes, not "
            + nonce.length);
      }
      nonce = nonce.clone();
    }

    @Override
    public byte[] nonce() {
      return nonce.clone();
    }

    public MessageType type() {
      return MessageType.SERVER_HELLO;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ServerHello h && Arrays.equals(h.nonce, nonce);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(nonce);
    }

    @Override
    public String toString() {
      return "ServerHello[<" + nonce.length + " bytes>]";
    }
  }

  record AppSecret(byte[] secret) implements Message {
    public AppSecret {
      secret = secret.clone();
    }

    @Override
    public byte[] secret() {
      return secret.clone();
    }

    public MessageType type() {
      return MessageType.APP_SECRET;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof AppSecret a && Arrays.equals(a.secret, secret);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(secret);
    }

    @Override
    public String toString() {
      return "AppSecret[<" + secret.length + " bytes>]";
    }
  }

  record BlockLocations(int numMaps, int finishedMaps, List<BlockLocation> locations) implements Message {
    public BlockLocations {
      locations = List.copyOf(locations);
    }

    public MessageType type() {
      return MessageType.BLOCK_LOCATIONS;
    }
  }

  /** One block; its bytes are the frame's payload. */
  record BlockData(BlockId blockId) implements Message {
    public MessageType type() {
      return MessageType.BLOCK_DATA;
    }
  }

  /**
   * Several blocks; their bytes follow as the frame's payload, concatenated in list order.
   * {@code numMaps} and {@code finishedMaps} tell whether a reduce's input is complete.
   */
  record BlocksData(int numMaps, int finishedMaps, List<BlockSize> blocks) implements Message {
    public BlocksData {
      blocks = List.copyOf(blocks);
    }

    public long totalBytes() {
      long total = 0;
      for (BlockSize b : blocks) {
        total += b.size();
      }
      return total;
    }

    public MessageType type() {
      return MessageType.BLOCKS_DATA;
    }
  }

  record WorkerStats(Map<String, Long> counters) implements Message {
    public WorkerStats {
      counters = Map.copyOf(counters);
    }

    public MessageType type() {
      return MessageType.WORKER_STATS;
    }
  }

  /** The worker's segment files, for {@link OpenLocal}. */
  record LocalSegments(List<LocalSegment> segments) implements Message {
    public LocalSegments {
      segments = List.copyOf(segments);
    }

    public MessageType type() {
      return MessageType.LOCAL_SEGMENTS;
    }
  }

  /** A range reserved for the connection: {@code length} bytes at {@code offset} of {@code segment}. */
  record MemoryLease(long leaseId, int segment, long offset, long length) implements Message {
    public MessageType type() {
      return MessageType.MEMORY_LEASE;
    }
  }

  /** Where a pinned block's bytes are: {@code length} bytes at {@code offset} of {@code segment}. */
  record PinnedBlock(long pinId, int segment, long offset, long length) implements Message {
    public MessageType type() {
      return MessageType.PINNED_BLOCK;
    }
  }

  /** One block of a {@link PinnedReduceInput}: pinned in the worker's shared memory, or else next in the payload. */
  record ReducePart(BlockId blockId, long size, Optional<PinnedBlock> pin) {
    public ReducePart {
      if (pin.isPresent() && pin.get().length() != size) {
        throw new IllegalArgumentException("block " + blockId + " of " + size + " bytes pinned as " + pin.get());
      }
    }
  }

  /**
   * A reduce's input, in the order of {@code parts}: each block pinned, or in the payload, which holds
   * the bytes of the unpinned ones one after the other.
   */
  record PinnedReduceInput(int numMaps, int finishedMaps, List<ReducePart> parts) implements Message {
    public PinnedReduceInput {
      parts = List.copyOf(parts);
    }

    /** The bytes the payload must hold: those of the blocks that are not pinned. */
    public long payloadBytes() {
      return parts.stream().filter(p -> p.pin().isEmpty()).mapToLong(ReducePart::size).sum();
    }

    public MessageType type() {
      return MessageType.PINNED_REDUCE_INPUT;
    }
  }

  /** The request failed with this status. */
  record Error(Status status, String message) implements Message {
    public Error {
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(message, "message");
    }

    public MessageType type() {
      return MessageType.ERROR;
    }
  }
}
