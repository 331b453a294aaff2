package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.EncoderException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.FrameEncoder;
import org.scache.common.protocol.GetScheduleResult;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.OutboundFrame;
import org.scache.common.protocol.RegisterApplication;
import org.scache.common.protocol.RegisterShuffle;
import org.scache.common.protocol.RegisterWorker;
import org.scache.common.protocol.ScheduleResult;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;
import org.scache.common.testing.ManualClock;

/**
 * A placement is answered in one frame: a shuffle whose placement could not fit is refused at registration, one at
 * the bound is answered within the frame limit (through the real frame encoder), and one that outgrew the frame
 * later is answered LIMIT_EXCEEDED, never left unanswered.
 */
class PlacementFrameLimitTest {
  private static final int FRAME = 16 << 20;
  /** Workers whose id and host take more than the 48 bytes the limit assumes at least. */
  private static final WorkerInfo W1 = new WorkerInfo("worker-0000001", "node-0000001.rack-01.dc-1.example.org", 17020);
  private static final WorkerInfo W2 = new WorkerInfo("worker-0000002", "node-0000002.rack-01.dc-1.example.org", 17020);

  private final ManualClock clock = new ManualClock();
  private final ShuffleRegistry shuffles = new ShuffleRegistry();

  private MasterRequests master(int maxFrameMetaBytes) {
    ApplicationRegistry applications = new ApplicationRegistry(clock, Duration.ofMinutes(5));
    return new MasterRequests(new WorkerRegistry(clock, Duration.ofSeconds(30)), applications, shuffles,
        new CoScheduler(0.5, 1, clock),
        new IncompleteRounds(), new WorkerNotifier() {
          @Override
          public CompletableFuture<Void> tell(WorkerInfo w, Message m) {
            return CompletableFuture.completedFuture(null);
          }

          @Override
          public void close() {}
        }, 1000, clock, new MasterMetrics(), ShuffleStore.NONE, new PlacementFrameLimit(maxFrameMetaBytes),
        ApplicationAdmission.open(applications, clock));
  }

  private static MasterRequests withWorkersAndApp(MasterRequests master, WorkerInfo... workers) {
    for (WorkerInfo w : workers) {
      master.serve(new RegisterWorker(w, 1 << 30, 0));
    }
    master.serve(new RegisterApplication("app", "secret".getBytes(StandardCharsets.UTF_8)));
    return master;
  }

  private void place(int shuffleId, int reduces, WorkerInfo... on) {
    List<ReduceAssignment> list = new ArrayList<>(reduces);
    for (int r = 0; r < reduces; r++) {
      list.add(new ReduceAssignment(r, on[r % on.length], r / 1000, 1000L));
    }
    shuffles.with(new ShuffleKey("app", shuffleId), s -> {
      s.schedule(new ShufflePlacement("app", shuffleId, CoScheduler.MIN_HEAP, list));
      return null;
    });
  }

  /** The bytes of the frame the real encoder writes for {@code answer}; throws if it refuses to write it. */
  private static long encodedFrameBytes(Message answer) {
    EmbeddedChannel channel = new EmbeddedChannel(new FrameEncoder(FRAME));
    try {
      channel.writeOutbound(OutboundFrame.of(1, answer));
      long bytes = 0;
      for (ByteBuf b = channel.readOutbound(); b != null; b = channel.readOutbound()) {
        bytes += b.readableBytes();
        b.release();
      }
      return bytes;
    } finally {
      channel.finishAndReleaseAll();
    }
  }

  @Test
  void registration_ofShufflesOf900kAnd880kReduces_isRefusedNamingTheFrameLimit() {
    MasterRequests master = withWorkersAndApp(master(FRAME), W1, W2);
    for (int reduces : new int[] {900_000, 880_000}) {
      ScacheException e = assertThrows(ScacheException.class, () -> master.serve(
          new RegisterShuffle(new ShuffleSpec("app", reduces, 2, reduces, PartitionerKind.HASH, 0))));
      assertEquals(Status.LIMIT_EXCEEDED, e.status(), e.getMessage());
      assertTrue(e.getMessage().contains(ScacheOptions.NETWORK_FRAME_META_MAX.key()), e.getMessage());
    }
    assertEquals(0, shuffles.size(), "nothing is kept of a refused shuffle");
  }

  @Test
  void aShuffleAtTheBound_isAnsweredInOneFrame_andOneReduceMoreIsRefused() {
    MasterRequests master = withWorkersAndApp(master(FRAME), W1, W2);
    int most = (int) new PlacementFrameLimit(FRAME).maxReduces("app", PlacementFrameLimit.workerBytes(List.of(W1, W2)));
    assertTrue(most > 800_000, "a placement of " + most + " reduces fits in 16 MiB");
    ScacheException e = assertThrows(ScacheException.class, () -> master.serve(
        new RegisterShuffle(new ShuffleSpec("app", 1, 1, most + 1, PartitionerKind.HASH, 0))));
    assertEquals(Status.LIMIT_EXCEEDED, e.status(), e.getMessage());

    master.serve(new RegisterShuffle(new ShuffleSpec("app", 0, 1, most, PartitionerKind.HASH, 0)));
    place(0, most, W1, W2);
    Message answer = master.serve(new GetScheduleResult("app", 0));
    assertEquals(most, ((ScheduleResult) answer).placement().assignments().size());
    long frame = encodedFrameBytes(answer);
    assertTrue(frame > FRAME - (1 << 20) && frame <= FRAME + 64, "the answer takes " + frame + " bytes");
  }

  @Test
  void aPlacementThatOutgrewTheFrame_isAnsweredLimitExceeded_whereTheEncoderWouldSendNothing() {
    int smallFrame = 64 << 10;
    MasterRequests master = withWorkersAndApp(master(smallFrame), W1);
    int most = (int) new PlacementFrameLimit(smallFrame).maxReduces("app",
        PlacementFrameLimit.workerBytes(List.of(W1)));
    master.serve(new RegisterShuffle(new ShuffleSpec("app", 0, 1, most, PartitionerKind.HASH, 0)));
    // workers of far longer names joined after the registration, and the reduces were placed on them
    WorkerInfo[] longNamed = new WorkerInfo[20];
    for (int i = 0; i < longNamed.length; i++) {
      longNamed[i] = new WorkerInfo("w".repeat(200) + i, "h".repeat(250) + i, 17020);
      master.serve(new RegisterWorker(longNamed[i], 1 << 30, 0));
    }
    place(0, most, longNamed);
    ScacheException e = assertThrows(ScacheException.class, () -> master.serve(new GetScheduleResult("app", 0)));
    assertEquals(Status.LIMIT_EXCEEDED, e.status(), e.getMessage());
    assertTrue(e.getMessage().contains(ScacheOptions.NETWORK_FRAME_META_MAX.key()), e.getMessage());
    EmbeddedChannel channel = new EmbeddedChannel(new FrameEncoder(smallFrame));
    ShufflePlacement placement = shuffles.peek(new ShuffleKey("app", 0)).flatMap(ShuffleState::schedule)
        .orElseThrow();
    assertThrows(EncoderException.class, () -> channel.writeOutbound(OutboundFrame.of(1,
        new ScheduleResult(placement))), "without the check, the answer would never leave the master");
    channel.finishAndReleaseAll();
  }
}
