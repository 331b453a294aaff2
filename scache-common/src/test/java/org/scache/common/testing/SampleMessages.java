package org.scache.common.testing;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.scache.common.BlockId;
import org.scache.common.WorkerInfo;
import org.scache.common.auth.Credentials;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.MessageType;
import org.scache.common.protocol.PartitionerKind;
import org.scache.common.protocol.Status;

/**
 * One representative message of every {@link MessageType}, with a payload for the types that carry
 * one. The switch below has no default branch, so a new message type does not compile until it
 * has a sample here, and every codec test then covers it.
 */
public final class SampleMessages {
  public static final String APP = "app-1";
  public static final byte[] APP_SECRET = "app-1 secret, 32 bytes of it ...".getBytes(StandardCharsets.UTF_8);
  public static final byte[] CLUSTER_SECRET = "the cluster secret".getBytes(StandardCharsets.UTF_8);
  public static final WorkerInfo WORKER_1 = new WorkerInfo("worker-1", "host-a.example", 17020);
  public static final WorkerInfo WORKER_2 = new WorkerInfo("worker-2", "host-b.example", 17021);
  public static final BlockId BLOCK_1 = new BlockId(APP, 3, 42, 1, 7);
  public static final BlockId BLOCK_2 = new BlockId(APP, 3, 43, 0, 7);
  /** Payload sizes: a single block, and the two blocks of {@link Message.BlocksData}. */
  public static final int BLOCK_1_SIZE = 300;
  public static final int BLOCK_2_SIZE = 200;

  private SampleMessages() {}

  /** The sample message of {@code type}. */
  public static Message of(MessageType type) {
    return switch (type) {
      case REGISTER_WORKER -> new Message.RegisterWorker(WORKER_1, 1L << 30, 12_345);
      case HEARTBEAT -> new Message.Heartbeat("worker-1", 1L << 30, 4096, 7, List.of(APP, "app-\u00fc-2", ""));
      case REPORT_BLOCKS -> new Message.ReportBlocks("worker-1",
          List.of(new Message.BlockSize(BLOCK_1, BLOCK_1_SIZE), new Message.BlockSize(BLOCK_2, 0)));
      case REGISTER_APPLICATION -> new Message.RegisterApplication(APP, APP_SECRET);
      case REGISTER_SHUFFLE -> new Message.RegisterShuffle(APP, 3, 100, 20, PartitionerKind.RANGE,
          1_700_000_000_000L);
      case MAP_FINISHED -> new Message.MapFinished(APP, 3, 42, 1);
      case GET_SCHEDULE_RESULT -> new Message.GetScheduleResult(APP, 3);
      case UNREGISTER_SHUFFLE -> new Message.UnregisterShuffle(APP, 3);
      case REMOVE_APPLICATION -> new Message.RemoveApplication(APP);
      case LIST_WORKERS -> new Message.ListWorkers();
      case FETCH_APP_SECRET -> new Message.FetchAppSecret(APP);
      case LOCATE_BLOCKS -> new Message.LocateBlocks(APP, 3, 7, -1);
      case PUT_BLOCK -> new Message.PutBlock(BLOCK_1);
      case GET_BLOCK -> new Message.GetBlock(BLOCK_1);
      case GET_REDUCE_INPUT -> new Message.GetReduceInput(APP, 3, 7);
      case FETCH_BLOCKS -> new Message.FetchBlocks(List.of(BLOCK_1, BLOCK_2));
      case GET_WORKER_STATS -> new Message.GetWorkerStats();
      case ACK -> new Message.Ack();
      case WORKER_REGISTERED -> new Message.WorkerRegistered(1000);
      case HEARTBEAT_ACK -> new Message.HeartbeatAck(List.of("app-0"));
      case SCHEDULE_RESULT -> new Message.ScheduleResult(APP, 3, "heuristic-min-heap",
          List.of(new Message.ReduceAssignment(0, WORKER_1, 0), new Message.ReduceAssignment(1, WORKER_2, 1)));
      case WORKERS -> new Message.Workers(List.of(WORKER_1, WORKER_2));
      case APP_SECRET -> new Message.AppSecret(APP_SECRET);
      case BLOCK_LOCATIONS -> new Message.BlockLocations(100, 42,
          List.of(new Message.BlockLocation(BLOCK_1, BLOCK_1_SIZE, WORKER_1),
              new Message.BlockLocation(BLOCK_2, BLOCK_2_SIZE, WORKER_2)));
      case BLOCK_DATA -> new Message.BlockData(BLOCK_1);
      case BLOCKS_DATA -> new Message.BlocksData(100, 100,
          List.of(new Message.BlockSize(BLOCK_1, BLOCK_1_SIZE), new Message.BlockSize(BLOCK_2, BLOCK_2_SIZE)));
      case WORKER_STATS -> new Message.WorkerStats(Map.of("blocks.stored", 12L, "bytes.used", 4096L, "delta", -3L));
      case ERROR -> new Message.Error(Status.BLOCK_NOT_FOUND, "no block " + BLOCK_1 + " here");
    };
  }

  /** The payload sent with the sample of {@code type}: empty unless the type carries one. */
  public static byte[] payload(MessageType type) {
    int size = switch (type) {
      case PUT_BLOCK, BLOCK_DATA -> BLOCK_1_SIZE;
      case BLOCKS_DATA -> BLOCK_1_SIZE + BLOCK_2_SIZE;
      default -> 0;
    };
    return bytes(size, type.id());
  }

  /** {@code size} reproducible pseudo-random bytes. */
  public static byte[] bytes(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** The credentials requests are signed with in tests. */
  public static Credentials appCredentials() {
    return Credentials.application(APP, APP_SECRET);
  }

  public static Credentials clusterCredentials() {
    return Credentials.cluster(CLUSTER_SECRET);
  }
}
