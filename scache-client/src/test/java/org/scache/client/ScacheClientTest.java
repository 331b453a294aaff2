package org.scache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.scache.common.testing.ScriptedConnections.answer;
import static org.scache.common.testing.ScriptedConnections.refuse;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.scache.common.BlockId;
import org.scache.common.Clock;
import org.scache.common.ScacheException;
import org.scache.common.WorkerInfo;
import org.scache.common.auth.Credentials;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.network.Reply;
import org.scache.common.protocol.Ack;
import org.scache.common.protocol.BlocksData;
import org.scache.common.protocol.GetReduceInput;
import org.scache.common.protocol.GetScheduleResult;
import org.scache.common.protocol.ListWorkers;
import org.scache.common.protocol.MapFinished;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.PutBlock;
import org.scache.common.protocol.RegisterShuffle;
import org.scache.common.protocol.ReportSamples;
import org.scache.common.protocol.ScheduleResult;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.Workers;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.MapSample;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.PredictorKind;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;
import org.scache.common.testing.ManualClock;
import org.scache.common.testing.ScriptedConnections;

/** The client's translation between its domain API and the protocol, its retries and its clock. */
class ScacheClientTest {
  private static final String MASTER = "master.example:17010";
  private static final String WORKER = "worker.example:17020";
  private static final String APP = "app-1";
  private static final byte[] SECRET = "secret".getBytes(StandardCharsets.UTF_8);
  private static final WorkerInfo W1 = new WorkerInfo("w1", "host-1", 17020);
  private static final WorkerInfo W2 = new WorkerInfo("w2", "host-2", 17020);

  private final ManualClock clock = new ManualClock();

  private static ScacheConf conf() {
    return ScacheConf.empty()
        .with(ScacheOptions.CLIENT_MASTER_ADDRESS, MASTER)
        .with(ScacheOptions.CLIENT_WORKER_ADDRESS, WORKER)
        .with(ScacheOptions.CLIENT_RETRY_MAX, 3)
        .with(ScacheOptions.CLIENT_RETRY_BACKOFF, Duration.ofMillis(1))
        .with(ScacheOptions.CLIENT_RETRY_BACKOFF_MAX, Duration.ofMillis(2))
        .with(ScacheOptions.CLIENT_RETRY_BUSY_TIMEOUT, Duration.ofSeconds(30))
        .with(ScacheOptions.CLIENT_LOCAL_SHM_ENABLED, false);
  }

  private ScacheClient client(ScriptedConnections connections, Clock clock) {
    return ScacheClient.create(conf(), APP, SECRET, connections, clock);
  }

  private static ScriptedConnections acking() {
    return new ScriptedConnections((peer, m) -> answer(new Ack()));
  }

  @Test
  void registerShuffle_sendsTheSpecWithTheClockTimeAndHints_toTheMaster_signedByTheApplication() {
    ScriptedConnections connections = acking();
    try (ScacheClient c = client(connections, clock)) {
      c.registerShuffle(4, 10, 3, PartitionerKind.RANGE,
          ShuffleHints.inputSizes(java.util.Collections.nCopies(10, 7L)).inStage(2)
              .withPredictor(PredictorKind.REGRESSION));
    }
    ScriptedConnections.Sent sent = connections.sent().get(0);
    assertEquals(MASTER, sent.peer());
    assertEquals(Optional.of(APP), sent.credentials().map(Credentials::principal));
    ShuffleSpec spec = ((RegisterShuffle) sent.message()).shuffle();
    assertEquals(new ShuffleSpec(APP, 4, 10, 3, PartitionerKind.RANGE, clock.millis(),
        java.util.Collections.nCopies(10, 7L), 2, Optional.of(PredictorKind.REGRESSION)), spec);
  }

  @Test
  void getScheduleResult_answersTheMastersPlacementAsADomainValue() {
    ShufflePlacement placed = new ShufflePlacement(APP, 4, "heuristic-minheap",
        List.of(new ReduceAssignment(0, W2, 0), new ReduceAssignment(1, W1, 0), new ReduceAssignment(2, W2, 1)));
    ScriptedConnections connections = new ScriptedConnections((peer, m) -> answer(new ScheduleResult(placed)));
    try (ScacheClient c = client(connections, clock)) {
      ShufflePlacement got = c.getScheduleResult(4);
      assertEquals(placed, got);
      assertEquals(Optional.of(W1), got.workerOf(1));
      assertEquals(Optional.empty(), got.workerOf(3));
    }
    assertEquals(new GetScheduleResult(APP, 4), connections.sent().get(0).message());
  }

  @Test
  void awaitScheduleResult_asksOnceWithItsWait_andAnswersThePlacementTheMasterGivesWhenFinal() {
    ShufflePlacement placed = new ShufflePlacement(APP, 4, "heuristic-minheap",
        List.of(new ReduceAssignment(0, W2, 0)));
    ScriptedConnections connections = new ScriptedConnections((peer, m) -> answer(new ScheduleResult(placed)));
    try (ScacheClient c = client(connections, Clock.SYSTEM)) {
      assertEquals(placed, c.awaitScheduleResult(4, Duration.ofSeconds(10)).join());
    }
    assertEquals(1, connections.sent().size());
    GetScheduleResult ask = (GetScheduleResult) connections.sent().get(0).message();
    assertEquals(4, ask.shuffleId());
    assertTrue(ask.waitMillis() > 0 && ask.waitMillis() <= 10_000, "the master is told how long to wait: " + ask);
    assertEquals(MASTER, connections.sent().get(0).peer());
  }

  @Test
  void awaitScheduleResult_whileTheMasterAnswersNotReady_asksAgainUntilItsWaitIsOver_thenFailsNotReady() {
    ScriptedConnections connections = new ScriptedConnections((peer, m) -> {
      throw refuse(Status.NOT_READY);
    });
    try (ScacheClient c = client(connections, Clock.SYSTEM)) {
      CompletionException e = assertThrows(CompletionException.class,
          () -> c.awaitScheduleResult(4, Duration.ofMillis(30)).join());
      assertEquals(Status.NOT_READY, ScacheException.from(e).status());
    }
    assertTrue(connections.sent().size() >= 2, "asked again within its wait: " + connections.sent().size());
    assertTrue(connections.sent().stream().allMatch(s -> s.message() instanceof GetScheduleResult),
        "only the placement is asked for");
  }

  @Test
  void reportSamples_sendsTheSamplesOfTheShuffle() {
    ScriptedConnections connections = acking();
    List<MapSample> samples = List.of(new MapSample(0, 100, 4, List.of(1, 3)), new MapSample(1, 50, 4, List.of(2, 2)));
    try (ScacheClient c = client(connections, clock)) {
      c.reportSamples(4, samples);
    }
    assertEquals(new ReportSamples(APP, 4, samples), connections.sent().get(0).message());
  }

  @Test
  void transientFailure_isTriedAgain_andSucceeds() {
    AtomicInteger calls = new AtomicInteger();
    ScriptedConnections connections = new ScriptedConnections((peer, m) -> {
      if (calls.incrementAndGet() < 3) {
        throw refuse(Status.NOT_READY);
      }
      return answer(new Ack());
    });
    try (ScacheClient c = client(connections, clock)) {
      c.unregisterShuffle(1);
    }
    assertEquals(3, connections.sent().size(), "two failures, then the third attempt");
  }

  @Test
  void transientFailure_afterTheLastAttempt_failsWithItsStatus() {
    ScriptedConnections connections = new ScriptedConnections((peer, m) -> {
      throw refuse(Status.CONNECTION_FAILED);
    });
    try (ScacheClient c = client(connections, clock)) {
      ScacheException e = assertThrows(ScacheException.class, () -> c.mapFinished(0, 1, 0));
      assertEquals(Status.CONNECTION_FAILED, e.status());
    }
    assertEquals(3, connections.sent().size());
  }

  @Test
  void permanentFailure_isNotTriedAgain() {
    ScriptedConnections connections = new ScriptedConnections((peer, m) -> {
      throw refuse(Status.AUTH_FAILED);
    });
    try (ScacheClient c = client(connections, clock)) {
      ScacheException e = assertThrows(ScacheException.class, c::registerApplication);
      assertEquals(Status.AUTH_FAILED, e.status());
    }
    assertEquals(1, connections.sent().size());
  }

  @Test
  void busyWorker_isTriedAgainUntilTheBusyTimeoutHasPassedOnTheClock() {
    // every reading of this clock is 10 s later than the one before
    Clock ticking = new Clock() {
      private long nanos;

      @Override
      public synchronized long millis() {
        return nanos / 1_000_000;
      }

      @Override
      public synchronized long nanos() {
        nanos += Duration.ofSeconds(10).toNanos();
        return nanos;
      }
    };
    ScriptedConnections connections = new ScriptedConnections((peer, m) -> {
      if (m instanceof ListWorkers) {
        return answer(new Workers(List.of())); // no other worker to put on
      }
      throw refuse(Status.RETRY_LATER);
    });
    try (ScacheClient c = client(connections, ticking)) {
      ScacheException e = assertThrows(ScacheException.class,
          () -> c.putBlock(new BlockId(APP, 0, 0, 0, 0), new byte[10]));
      assertEquals(Status.RETRY_LATER, e.status());
      assertTrue(e.getMessage().contains("stayed busy for 30 s"), e.getMessage());
    }
    assertEquals(3, connections.sentOfType(PutBlock.class).size(),
        "first try at 10 s, retries at 20 s and 30 s, given up at 40 s");
  }

  @Test
  void putRefusedForCapacity_goesToAnotherLiveWorker_whichTheMapsEndGoesThroughFirst() {
    WorkerInfo node = new WorkerInfo("node", "worker.example", 17020);
    ScriptedConnections connections = new ScriptedConnections((peer, m) -> {
      if (m instanceof ListWorkers) {
        return answer(new Workers(List.of(node, W1)));
      }
      if (m instanceof PutBlock && peer.equals(WORKER)) {
        throw refuse(Status.LIMIT_EXCEEDED);
      }
      return answer(new Ack());
    });
    try (ScacheClient c = client(connections, clock)) {
      c.putBlock(new BlockId(APP, 0, 3, 1, 0), new byte[10]);
      c.putBlock(new BlockId(APP, 0, 3, 1, 1), new byte[10]);
      c.mapFinished(0, 3, 1);
    }
    List<String> puts = connections.sent().stream().filter(s -> s.message() instanceof PutBlock)
        .map(ScriptedConnections.Sent::peer).toList();
    assertEquals(List.of(WORKER, W1.address(), WORKER, W1.address()), puts,
        "each block refused by the node's worker was put on the other");
    List<String> finished = connections.sent().stream().filter(s -> s.message() instanceof MapFinished)
        .map(ScriptedConnections.Sent::peer).toList();
    assertEquals(List.of(W1.address(), WORKER), finished, "the map's end through the other worker first");
  }

  @Test
  void putRefusedForAnythingButCapacity_isNotPutElsewhere() {
    ScriptedConnections connections = new ScriptedConnections((peer, m) -> {
      if (m instanceof ListWorkers) {
        return answer(new Workers(List.of(W1)));
      }
      throw refuse(Status.AUTH_FAILED);
    });
    try (ScacheClient c = client(connections, clock)) {
      ScacheException e = assertThrows(ScacheException.class,
          () -> c.putBlock(new BlockId(APP, 0, 0, 0, 0), new byte[10]));
      assertEquals(Status.AUTH_FAILED, e.status());
    }
    assertEquals(List.of(WORKER), connections.sent().stream().map(ScriptedConnections.Sent::peer).toList());
  }

  @Test
  void putBlock_sendsTheBytesAsPayloadToThisNodesWorker() {
    ScriptedConnections connections = acking();
    BlockId id = new BlockId(APP, 2, 5, 1, 3);
    try (ScacheClient c = client(connections, clock)) {
      c.putBlock(id, ByteBuffer.wrap(new byte[1234]));
    }
    ScriptedConnections.Sent sent = connections.sent().get(0);
    assertEquals(WORKER, sent.peer());
    assertEquals(new PutBlock(id), sent.message());
    assertEquals(1234, sent.payloadBytes());
  }

  @Test
  void putBlock_ofAnotherApplication_isRefusedBeforeSending() {
    ScriptedConnections connections = acking();
    try (ScacheClient c = client(connections, clock)) {
      assertThrows(IllegalArgumentException.class, () -> c.putBlock(new BlockId("other", 0, 0, 0, 0), new byte[1]));
    }
    assertTrue(connections.sent().isEmpty());
  }

  @Test
  void getReduceInput_splitsThePayloadIntoTheBlocksTheAnswerNames() {
    BlockId a = new BlockId(APP, 1, 0, 0, 2);
    BlockId b = new BlockId(APP, 1, 1, 0, 2);
    byte[] payload = "aaabbbbb".getBytes(StandardCharsets.US_ASCII);
    ScriptedConnections connections = new ScriptedConnections((peer, m) -> answer(
        new BlocksData(3, 2, List.of(new BlockSize(a, 3), new BlockSize(b, 5))), payload));
    try (ScacheClient c = client(connections, clock)) {
      ReduceInput in = c.getReduceInput(1, 2, Duration.ZERO);
      assertFalse(in.isComplete(), "2 of 3 maps finished");
      assertEquals(2, in.blocks().size());
      assertEquals(a, in.blocks().get(0).blockId());
      assertArrayEquals("aaa".getBytes(StandardCharsets.US_ASCII), bytes(in.blocks().get(0).data()));
      assertArrayEquals("bbbbb".getBytes(StandardCharsets.US_ASCII), bytes(in.blocks().get(1).data()));
    }
    assertEquals(new GetReduceInput(APP, 1, 2, 0), connections.sent().get(0).message());
  }

  @Test
  void getReduceInput_whosePayloadDisagreesWithItsBlockSizes_failsAsMalformed() {
    BiFunction<String, Message, Reply> script = (peer, m) -> answer(
        new BlocksData(1, 1, List.of(new BlockSize(new BlockId(APP, 1, 0, 0, 2), 10))), new byte[4]);
    try (ScacheClient c = client(new ScriptedConnections(script), clock)) {
      ScacheException e = assertThrows(ScacheException.class, () -> c.getReduceInput(1, 2));
      assertEquals(Status.MALFORMED_MESSAGE, e.status());
    }
  }

  @Test
  void close_closesTheConnections() {
    ScriptedConnections connections = acking();
    client(connections, clock).close();
    assertTrue(connections.isClosed());
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }
}
