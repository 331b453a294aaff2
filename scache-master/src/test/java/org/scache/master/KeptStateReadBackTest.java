package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.GetScheduleResult;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.ScheduleResult;
import org.scache.common.protocol.StoredForms;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;
import org.scache.common.testing.ManualClock;

/**
 * A restarted master reads back whatever an earlier one kept, in bounded memory: state at every limit loads (in this
 * JVM's heap) and holds no more than the limits allow; shuffles an older master accepted past them (900,000 and
 * 880,000 reduces) are skipped unread; corrupt, cut-short and oversized records are skipped and the rest is loaded.
 */
class KeptStateReadBackTest {
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final List<WorkerInfo> WORKERS = List.of(
      new WorkerInfo("worker-0000001", "node-0000001.rack-01.example.org", 17020),
      new WorkerInfo("worker-0000002", "node-0000002.rack-01.example.org", 17020),
      new WorkerInfo("worker-0000003", "node-0000003.rack-02.example.org", 17020),
      new WorkerInfo("worker-0000004", "node-0000004.rack-02.example.org", 17020));

  @TempDir
  Path dir;
  private final ManualClock clock = new ManualClock();

  private MasterTerm restart(ScacheConf conf, SkippedRecords skipped) {
    StateLimits limits = StateLimits.from(conf);
    return MasterTerm.begin(conf, clock, Optional.of(ApplicationJournal.open(dir, limits, skipped)),
        new DirectoryShuffleStore(dir, limits, skipped), new WorkerNotifier() {
          @Override
          public CompletableFuture<Void> tell(WorkerInfo w, Message m) {
            return CompletableFuture.completedFuture(null);
          }

          @Override
          public void close() {}
        }, new MasterMetrics(), skipped);
  }

  /** A journal line as {@link ApplicationJournal} writes a registration. */
  private static String registration(String app, byte[] secret) {
    return "R " + B64.encodeToString(app.getBytes(StandardCharsets.UTF_8)) + " " + B64.encodeToString(secret) + "\n";
  }

  private static ShufflePlacement placement(String app, int shuffleId, int reduces, List<WorkerInfo> on) {
    List<ReduceAssignment> list = new ArrayList<>(reduces);
    for (int r = 0; r < reduces; r++) {
      list.add(new ReduceAssignment(r, on.get(r % on.size()), r / 5000, 4096));
    }
    return new ShufflePlacement(app, shuffleId, CoScheduler.MIN_HEAP, list);
  }

  /** What an earlier master kept of a shuffle of one map and {@code reduces} reduces, placed. */
  private static void kept(DirectoryShuffleStore store, String app, int shuffleId, int reduces, List<WorkerInfo> on) {
    store.registered(new ShuffleSpec(app, shuffleId, 1, reduces, PartitionerKind.HASH, 0));
    store.placed(placement(app, shuffleId, reduces, on));
  }

  private static long heapUsedAfterGc() {
    Runtime rt = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return rt.totalMemory() - rt.freeMemory();
  }

  @Test
  void stateAtEveryLimit_isReadBack_holdingNoMoreThanTheLimitsAllow() throws IOException {
    int apps = 5000;
    int secretBytes = StateLimits.DEFAULTS.maxSecretBytes();
    int reduces = (int) new PlacementFrameLimit(StateLimits.DEFAULTS.maxFrameMetaBytes()).maxReduces("app-10",
        PlacementFrameLimit.workerBytes(WORKERS));
    long cost = ShuffleBudget.costOf(new ShuffleSpec("app-10", 0, 1, reduces, PartitionerKind.HASH, 0));
    long budget = 10 * cost + cost / 2;
    ScacheConf conf = ScacheConf.empty().with(ScacheOptions.MASTER_APPLICATIONS_MAX.key(), Integer.toString(apps))
        .with(ScacheOptions.MASTER_SHUFFLE_STATE_MAX.key(), Long.toString(budget))
        .with(ScacheOptions.MASTER_SHUFFLE_STATE_APPLICATION_SHARE.key(), "1.0");
    Random random = new Random(7);
    byte[] lastSecret = new byte[secretBytes];
    try (Writer journal = Files.newBufferedWriter(dir.resolve(ApplicationJournal.FILE), StandardCharsets.US_ASCII)) {
      for (int i = 0; i < apps; i++) {
        random.nextBytes(lastSecret);
        journal.write(registration("app-" + i, lastSecret));
      }
    }
    DirectoryShuffleStore store = new DirectoryShuffleStore(dir);
    for (int i = 10; i < 22; i++) {
      kept(store, "app-" + i, 0, reduces, WORKERS);
    }
    // what an older master accepted and could not read back
    kept(store, "app-1", 0, 900_000, WORKERS);
    kept(store, "app-2", 0, 880_000, WORKERS);

    long before = heapUsedAfterGc();
    SkippedRecords skipped = SkippedRecords.logged();
    MasterTerm term = restart(conf, skipped);
    try {
      long held = heapUsedAfterGc() - before;
      assertTrue(held < budget + (long) apps * 2 * secretBytes, "the state read back holds " + held
          + " bytes, more than the shuffle budget of " + budget + " and the applications' secrets");
      assertEquals(apps, term.applications.size());
      assertArrayEquals(lastSecret, term.applications.requireSecret("app-" + (apps - 1)));
      assertEquals(10, term.shuffles.size(), "as many shuffles as the budget holds");
      assertEquals(4, skipped.count(), "two past the budget, and the shuffles of 900,000 and 880,000 reduces");
      assertFalse(term.shuffles.peek(new ShuffleKey("app-1", 0)).isPresent());
      assertFalse(term.shuffles.peek(new ShuffleKey("app-2", 0)).isPresent());
      List<String> loaded = term.shuffles.map(s -> s.shuffle().appId());
      ScheduleResult answer = (ScheduleResult) term.requests.serve(new GetScheduleResult(loaded.get(0), 0));
      assertEquals(reduces, answer.placement().assignments().size());
      assertEquals(placement(loaded.get(0), 0, reduces, WORKERS), answer.placement(), "placed as before the restart");
    } finally {
      term.end();
    }
  }

  @Test
  void corruptCutShortAndOversizedRecords_areSkipped_andTheRestIsLoaded() throws IOException {
    ScacheConf conf = ScacheConf.empty().with(ScacheOptions.NETWORK_FRAME_META_MAX.key(), "1m");
    Path journal = dir.resolve(ApplicationJournal.FILE);
    Files.writeString(journal, registration("app-a", bytes("secret-a")) + "R !!not-base64!! x\n"
        + registration("app-huge", new byte[8 << 20]) + registration("app-b", bytes("secret-b"))
        + "X " + B64.encodeToString(bytes("app-c")) + " " + clock.millis() + "\n" + "R YXBwLWQ",
        StandardCharsets.US_ASCII);
    DirectoryShuffleStore store = new DirectoryShuffleStore(dir);
    kept(store, "app-a", 0, 100, WORKERS);
    kept(store, "app-a", 1, 100, WORKERS);
    kept(store, "app-a", 2, 100, WORKERS);
    // 10,000 reduces fit in 1 MiB (20 bytes each), but not on 2,000 workers of 450-byte names (about 900 KB more)
    List<WorkerInfo> longNamed = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      longNamed.add(new WorkerInfo("w".repeat(200) + i, "h".repeat(250), 1));
    }
    store.registered(new ShuffleSpec("app-a", 3, 1, 10_000, PartitionerKind.HASH, 0));
    store.placed(placement("app-a", 3, 10_000, longNamed));
    kept(store, "app-a", 4, 100_000, WORKERS);
    Path shuffles = dir.resolve("shuffles").resolve(B64.encodeToString(bytes("app-a")));
    byte[] garbage = new byte[300];
    new Random(3).nextBytes(garbage);
    Files.write(shuffles.resolve("1.spec"), garbage);
    byte[] placed = Files.readAllBytes(shuffles.resolve("2.placement"));
    Files.write(shuffles.resolve("2.placement"), java.util.Arrays.copyOf(placed, placed.length / 2));

    SkippedRecords skipped = SkippedRecords.logged();
    MasterTerm term = restart(conf, skipped);
    try {
      assertTrue(term.applications.isRegistered("app-a") && term.applications.isRegistered("app-b"));
      assertFalse(term.applications.isRegistered("app-huge"), "an 8 MiB secret is past the limit");
      assertEquals(List.of("app-c"), term.applications.removedAmong(List.of("app-a", "app-c")));
      assertEquals(List.of(0, 2, 3), term.shuffles.map(s -> s.shuffle().shuffleId()));
      assertTrue(term.shuffles.peek(new ShuffleKey("app-a", 0)).flatMap(ShuffleState::schedule).isPresent());
      assertFalse(term.shuffles.peek(new ShuffleKey("app-a", 2)).flatMap(ShuffleState::schedule).isPresent(),
          "a placement cut short is not taken; the shuffle is placed again");
      assertFalse(term.shuffles.peek(new ShuffleKey("app-a", 3)).flatMap(ShuffleState::schedule).isPresent(),
          "a placement past the frame limit is not read");
      // a corrupt line, an oversized one, the cut-short last one; a corrupt spec, a cut-short placement, an
      // oversized placement, and a shuffle whose placement could not fit in a frame
      assertEquals(7, skipped.count());
      term.applications.register("app-d", bytes("secret-d"));
    } finally {
      term.end();
    }
    SkippedRecords again = SkippedRecords.logged();
    MasterTerm next = restart(conf, again);
    try {
      assertTrue(next.applications.isRegistered("app-d"), "written on a line of its own after the cut-off one");
      assertArrayEquals(bytes("secret-b"), next.applications.requireSecret("app-b"));
    } finally {
      next.end();
    }
  }

  @Test
  void aStoreWrittenBeforeTheLimits_stillLoads() throws IOException {
    Files.writeString(dir.resolve(ApplicationJournal.FILE), registration("app-1", bytes("one"))
        + registration("app-2", bytes("two")) + "X " + B64.encodeToString(bytes("app-2")) + " 5\n"
        + "F " + B64.encodeToString(bytes("app-2")) + "\n", StandardCharsets.US_ASCII, StandardOpenOption.CREATE);
    DirectoryShuffleStore store = new DirectoryShuffleStore(dir);
    store.registered(new ShuffleSpec("app-1", 0, 2, 3, PartitionerKind.RANGE, 9));
    Files.write(dir.resolve("shuffles").resolve(B64.encodeToString(bytes("app-1"))).resolve("0.placement"),
        StoredForms.placement(placement("app-1", 0, 3, WORKERS)));
    SkippedRecords skipped = SkippedRecords.logged();
    MasterTerm term = restart(ScacheConf.empty(), skipped);
    try {
      assertEquals(0, skipped.count());
      assertEquals(1, term.applications.size(), "app-2 removed and its tombstone forgotten");
      assertEquals(Optional.of(placement("app-1", 0, 3, WORKERS)),
          term.shuffles.peek(new ShuffleKey("app-1", 0)).flatMap(ShuffleState::schedule));
    } finally {
      term.end();
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
