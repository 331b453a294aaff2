package org.scache.common.protocol;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.scache.common.BlockId;
import org.scache.common.WorkerInfo;

/**
 * Every request and answer SCache sends. Messages are plain values; {@link MessageCodec} is the one
 * place that knows how they look on the wire. Bulk bytes (block data) travel beside a message as
 * the frame's payload, never inside it.
 */
public sealed interface Message {

  MessageType type();

  /** A block's id and its size in bytes. */
  record BlockSize(BlockId blockId, long size) {}

  /** Where a block is stored and how large it is. */
  record BlockLocation(BlockId blockId, long size, WorkerInfo holder) {}

  /** One reduce partition's place: its worker and the round it runs in there. */
  record ReduceAssignment(int reduceId, WorkerInfo worker, int round) {}

  // ---------------------------------------------------------------- requests

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
  record RegisterApplication(String appId, byte[] secret) implements Message {
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

  record RegisterShuffle(String appId, int shuffleId, int numMaps, int numReduces, PartitionerKind partitioner,
      long submissionTimeMillis) implements Message {
    public MessageType type() {
      return MessageType.REGISTER_SHUFFLE;
    }
  }

  /** A map attempt has put all its blocks; it is the map's final attempt. */
  record MapFinished(String appId, int shuffleId, int mapId, int attempt) implements Message {
    public MessageType type() {
      return MessageType.MAP_FINISHED;
    }
  }

  record GetScheduleResult(String appId, int shuffleId) implements Message {
    public MessageType type() {
      return MessageType.GET_SCHEDULE_RESULT;
    }
  }

  record UnregisterShuffle(String appId, int shuffleId) implements Message {
    public MessageType type() {
      return MessageType.UNREGISTER_SHUFFLE;
    }
  }

  record RemoveApplication(String appId) implements Message {
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
  record LocateBlocks(String appId, int shuffleId, int reduceId, int mapId) implements Message {
    public MessageType type() {
      return MessageType.LOCATE_BLOCKS;
    }
  }

  /** Stores the frame's payload as this block. */
  record PutBlock(BlockId blockId) implements Message {
    public MessageType type() {
      return MessageType.PUT_BLOCK;
    }
  }

  /** Reads one block from wherever it is stored. */
  record GetBlock(BlockId blockId) implements Message {
    public MessageType type() {
      return MessageType.GET_BLOCK;
    }
  }

  /** Reads every final-attempt block of one reduce partition. */
  record GetReduceInput(String appId, int shuffleId, int reduceId) implements Message {
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
  record ScheduleResult(String appId, int shuffleId, String policy, List<ReduceAssignment> assignments)
      implements Message {
    public ScheduleResult {
      assignments = List.copyOf(assignments);
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
