package org.scache.common.testing;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.scache.common.BlockId;
import org.scache.common.WorkerInfo;
import org.scache.common.auth.Credentials;
import org.scache.common.protocol.Ack;
import org.scache.common.protocol.AppSecret;
import org.scache.common.protocol.AskBlockRoom;
import org.scache.common.protocol.BlockData;
import org.scache.common.protocol.BlockLocations;
import org.scache.common.protocol.BlockRoom;
import org.scache.common.protocol.BlocksData;
import org.scache.common.protocol.CommitLeased;
import org.scache.common.protocol.ErrorAnswer;
import org.scache.common.protocol.FetchAppSecret;
import org.scache.common.protocol.FetchBlocks;
import org.scache.common.protocol.GetBlock;
import org.scache.common.protocol.GetReduceInput;
import org.scache.common.protocol.GetScheduleResult;
import org.scache.common.protocol.GetWorkerStats;
import org.scache.common.protocol.Heartbeat;
import org.scache.common.protocol.HeartbeatAck;
import org.scache.common.protocol.HoldCopies;
import org.scache.common.protocol.LeaseMemory;
import org.scache.common.protocol.ListWorkers;
import org.scache.common.protocol.LocalSegment;
import org.scache.common.protocol.LocalSegments;
import org.scache.common.protocol.LocateBlocks;
import org.scache.common.protocol.MapFinished;
import org.scache.common.protocol.MapOutputReady;
import org.scache.common.protocol.MapOutputsReady;
import org.scache.common.protocol.MemoryLease;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.MessageType;
import org.scache.common.protocol.OpenLocal;
import org.scache.common.protocol.PinBlock;
import org.scache.common.protocol.PinReduceInput;
import org.scache.common.protocol.PinReduceInputPart;
import org.scache.common.protocol.PinnedBlock;
import org.scache.common.protocol.PinnedReduceInput;
import org.scache.common.protocol.PutBlock;
import org.scache.common.protocol.ReadInPlace;
import org.scache.common.protocol.ReduceCommitted;
import org.scache.common.protocol.ReducePart;
import org.scache.common.protocol.RegisterApplication;
import org.scache.common.protocol.RegisterShuffle;
import org.scache.common.protocol.RegisterWorker;
import org.scache.common.protocol.ReleaseLease;
import org.scache.common.protocol.RemoveApplication;
import org.scache.common.protocol.ReportBlockRoom;
import org.scache.common.protocol.ReportBlocks;
import org.scache.common.protocol.ReportLostBlocks;
import org.scache.common.protocol.ReportRounds;
import org.scache.common.protocol.ReportSamples;
import org.scache.common.protocol.ReportWorkerActivity;
import org.scache.common.protocol.RoundsIncomplete;
import org.scache.common.protocol.ScheduleResult;
import org.scache.common.protocol.ServerHello;
import org.scache.common.protocol.ShuffleScheduled;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.Unpin;
import org.scache.common.protocol.UnregisterShuffle;
import org.scache.common.protocol.VouchApplication;
import org.scache.common.protocol.WorkerRegistered;
import org.scache.common.protocol.WorkerStats;
import org.scache.common.protocol.Workers;
import org.scache.common.shuffle.BlockLocation;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.FinalAttempt;
import org.scache.common.shuffle.MapSample;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.PredictorKind;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ReduceMove;
import org.scache.common.shuffle.RoundState;
import org.scache.common.shuffle.ShuffleActivity;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;

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
  /** Payload sizes: a single block, and the two blocks of {@link BlocksData}. */
  public static final int BLOCK_1_SIZE = 300;
  public static final int BLOCK_2_SIZE = 200;

  private SampleMessages() {}

  /** The sample message of {@code type}. */
  public static Message of(MessageType type) {
    return switch (type) {
      case REGISTER_WORKER -> new RegisterWorker(WORKER_1, 1L << 30, 12_345);
      case HEARTBEAT -> new Heartbeat("worker-1", 1L << 30, 4096, 7, List.of(APP, "app-\u00fc-2", ""));
      case REPORT_BLOCKS -> new ReportBlocks("worker-1",
          List.of(new BlockSize(BLOCK_1, BLOCK_1_SIZE), new BlockSize(BLOCK_2, 0)));
      case REGISTER_APPLICATION -> new RegisterApplication(APP, APP_SECRET, "alice:1700000000:c2lnbmVk");
      case REGISTER_SHUFFLE -> new RegisterShuffle(new ShuffleSpec(APP, 3, 4, 20, PartitionerKind.RANGE,
          1_700_000_000_000L, List.of(1L << 30, 0L, 12_345L, 1L << 40), 2, Optional.of(PredictorKind.SAMPLING), 4,
          true, true, 2));
      case MAP_FINISHED -> new MapFinished(APP, 3, 42, 1);
      case GET_SCHEDULE_RESULT -> new GetScheduleResult(APP, 3, 2_000);
      case UNREGISTER_SHUFFLE -> new UnregisterShuffle(APP, 3);
      case REMOVE_APPLICATION -> new RemoveApplication(APP);
      case LIST_WORKERS -> new ListWorkers();
      case ASK_BLOCK_ROOM -> new AskBlockRoom();
      case BLOCK_ROOM -> new BlockRoom(5_000, 12_000, 3, 1, 700);
      case REPORT_BLOCK_ROOM -> new ReportBlockRoom("worker-1", 524_288, 262_144);
      case FETCH_APP_SECRET -> new FetchAppSecret(APP);
      case LOCATE_BLOCKS -> new LocateBlocks(APP, 3, 7, -1);
      case VOUCH_APPLICATION -> new VouchApplication(APP, "alice", APP_SECRET);
      case PUT_BLOCK -> new PutBlock(BLOCK_1);
      case GET_BLOCK -> new GetBlock(BLOCK_1);
      case GET_REDUCE_INPUT -> new GetReduceInput(APP, 3, 7, 30_000);
      case FETCH_BLOCKS -> new FetchBlocks(List.of(BLOCK_1, BLOCK_2));
      case GET_WORKER_STATS -> new GetWorkerStats();
      case REPORT_SAMPLES -> new ReportSamples(APP, 3, List.of(
          new MapSample(0, 1L << 30, 6, List.of(3, 0, 3), Optional.of("host-a.example")), new MapSample(42, 0, 6,
              List.of(0, 0, 0))));
      case SHUFFLE_SCHEDULED -> new ShuffleScheduled(new ShufflePlacement(APP, 3, "accumulated",
          List.of(new ReduceAssignment(0, WORKER_1, 0, 4096), new ReduceAssignment(1, WORKER_2, 0))),
          List.of(new ReduceMove(2, 1, WORKER_1, WORKER_2)), 1_700_000_000_000L);
      case MAP_OUTPUT_READY -> new MapOutputReady(APP, 3, 42, 1, WORKER_1,
          List.of(new BlockSize(BLOCK_1, BLOCK_1_SIZE)));
      case MAP_OUTPUTS_READY -> new MapOutputsReady(List.of(new MapOutputReady(APP, 3, 42, 1, WORKER_1,
          List.of(new BlockSize(BLOCK_1, BLOCK_1_SIZE))), new MapOutputReady(APP, 3, 43, 0, WORKER_2,
          List.of(new BlockSize(BLOCK_2, BLOCK_2_SIZE)))));
      case OPEN_LOCAL -> new OpenLocal(APP);
      case LEASE_MEMORY -> new LeaseMemory(APP, 64L << 20);
      case COMMIT_LEASED -> new CommitLeased(BLOCK_1, 9, (1L << 30) + 4096, BLOCK_1_SIZE);
      case RELEASE_LEASE -> new ReleaseLease(9);
      case PIN_BLOCK -> new PinBlock(BLOCK_2);
      case PIN_REDUCE_INPUT -> new PinReduceInput(APP, 3, 7, -1);
      case PIN_REDUCE_INPUT_PART -> new PinReduceInputPart(APP, 3, 7, -1, List.of(0, 4, 1 << 20),
          List.of(new FinalAttempt(1, 0), new FinalAttempt(2, 3)));
      case UNPIN -> new Unpin(List.of(5L, 6L, Long.MAX_VALUE));
      case REPORT_ROUNDS -> new ReportRounds("worker-1", List.of(new RoundState(APP, 3, 0, true),
          new RoundState("app-\u00fc-2", 0, 7, false)));
      case ROUNDS_INCOMPLETE -> new RoundsIncomplete(APP, 3, List.of(0, 2, 5));
      case REDUCE_COMMITTED -> new ReduceCommitted(APP, 3, 7);
      case READ_IN_PLACE -> new ReadInPlace(APP, 3);
      case HOLD_COPIES -> new HoldCopies(APP, 3, true);
      case REPORT_LOST_BLOCKS -> new ReportLostBlocks("worker-1", List.of(BLOCK_1, BLOCK_2));
      case REPORT_WORKER_ACTIVITY -> new ReportWorkerActivity("worker-1", 1L << 33, 5L << 30, List.of(
          new ShuffleActivity(APP, 3, 1 << 20, 7, 0, List.of(new ShuffleActivity.ReduceRead(2, true, 5, 0),
              new ShuffleActivity.ReduceRead(9, false, 0, 1L << 31))),
          new ShuffleActivity("app-\u00fc-2", 0, 0, 0, 12, List.of())));
      case ACK -> new Ack();
      case WORKER_REGISTERED -> new WorkerRegistered(1000);
      case HEARTBEAT_ACK -> new HeartbeatAck(List.of("app-0"));
      case SCHEDULE_RESULT -> new ScheduleResult(new ShufflePlacement(APP, 3, "heuristic-min-heap",
          List.of(new ReduceAssignment(0, WORKER_1, 0, 0), new ReduceAssignment(1, WORKER_2, 1, 65536))));
      case WORKERS -> new Workers(List.of(WORKER_1, WORKER_2));
      case APP_SECRET -> new AppSecret(APP_SECRET, "alice");
      case SERVER_HELLO -> new ServerHello(FrameCodecHarness.NONCE);
      case BLOCK_LOCATIONS -> new BlockLocations(100, 42,
          List.of(new BlockLocation(BLOCK_1, BLOCK_1_SIZE, WORKER_1),
              new BlockLocation(BLOCK_2, BLOCK_2_SIZE, WORKER_2)));
      case BLOCK_DATA -> new BlockData(BLOCK_1);
      case BLOCKS_DATA -> new BlocksData(100, 100,
          List.of(new BlockSize(BLOCK_1, BLOCK_1_SIZE), new BlockSize(BLOCK_2, BLOCK_2_SIZE)));
      case WORKER_STATS -> new WorkerStats(Map.of("blocks.stored", 12L, "bytes.used", 4096L, "delta", -3L));
      case LOCAL_SEGMENTS -> new LocalSegments(List.of(
          new LocalSegment(0, "/dev/shm/scache-worker-1-4242-0.mem", 1L << 30),
          new LocalSegment(1, "/dev/shm/scache-worker-1-4242-1.mem", 12_352)));
      case MEMORY_LEASE -> new MemoryLease(9, 1, 4096, 64L << 20);
      case PINNED_BLOCK -> new PinnedBlock(5, 0, (1L << 31) + 64, BLOCK_2_SIZE);
      case PINNED_REDUCE_INPUT -> new PinnedReduceInput(100, 99, List.of(
          new ReducePart(BLOCK_1, BLOCK_1_SIZE, Optional.empty()),
          new ReducePart(BLOCK_2, 1L << 32, Optional.of(new PinnedBlock(6, 2, 4096, 1L << 32))),
          new ReducePart(new BlockId(APP, 3, 44, 0, 7), BLOCK_2_SIZE, Optional.empty())));
      case ERROR -> new ErrorAnswer(Status.BLOCK_NOT_FOUND, "no block " + BLOCK_1 + " here");
    };
  }

  /** The payload sent with the sample of {@code type}: empty unless the type carries one. */
  public static byte[] payload(MessageType type) {
    int size = switch (type) {
      case PUT_BLOCK, BLOCK_DATA -> BLOCK_1_SIZE;
      case BLOCKS_DATA, PINNED_REDUCE_INPUT -> BLOCK_1_SIZE + BLOCK_2_SIZE;
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
