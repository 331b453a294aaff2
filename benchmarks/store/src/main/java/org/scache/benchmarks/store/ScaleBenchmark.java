package org.scache.benchmarks.store;

import io.netty.channel.ChannelHandlerContext;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import javax.management.ObjectName;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.network.RequestDispatcher;
import org.scache.common.network.ScacheServer;
import org.scache.common.network.TransportSettings;
import org.scache.common.protocol.Ack;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.ShuffleScheduled;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;
import org.scache.master.InProcessRequests;
import org.scache.master.ScacheMaster;
import org.scache.worker.store.BlockPuts;
import org.scache.worker.store.BlockQuota;
import org.scache.worker.store.BlockStore;
import org.scache.worker.store.MemoryPool;
import org.scache.worker.store.PendingPut;
import org.scache.worker.store.WorkerStorage;

/**
 * What a shuffle of M maps × R reduces costs SCache's metadata as M × R grows: for each point, a worker's
 * store takes the M × R blocks of one node (empty blocks, whose metadata is all they cost, and blocks of one
 * byte, which hold memory of the reserve too) and the master takes their
 * sizes from {@code hosts} workers, split over {@code apps} applications, and places every reduce. Printed per
 * point: worker heap per block (what the live heap grew by) and puts/s, lookups/s, the time to place its held blocks
 * again, map ends/s and reduce commits/s; master heap per block, reports/s,
 * and the time every map's end and the placement take, per application; the messages the master sent the workers
 * (each finished map's blocks, to the workers its reduces are placed on) and when the last was answered. A point the
 * worker's block limit (derived from this JVM's heap as a worker derives it) refuses says so. Real objects
 * throughout, in this JVM; the master's workers are ids at one endpoint that answers for them all, over one
 * connection. A point ending in "n" is measured on a worker process instead, its blocks put by a client the way a
 * map task puts them ({@link WireScalePoint}).
 */
public final class ScaleBenchmark {
  private static final int BATCH = 1024;

  private static final String APP = "application_1765000000000_0001";
  private static final byte[] APP_BYTES = APP.getBytes(StandardCharsets.UTF_8);

  private ScaleBenchmark() {}

  /**
   * Arguments: [points, e.g. 100x100,1000x1000, or 10000x10000m for the master alone] [hosts] [applications, e.g.
   * 1,50]; defaults
   * 100x100,300x300,1000x1000,2000x2000, 100 hosts, 1 and 50 applications.
   */
  public static void main(String[] args) throws Exception {
    String points = args.length > 0 ? args[0] : "100x100,300x300,1000x1000,2000x2000";
    int hosts = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    String apps = args.length > 2 ? args[2] : "1,50";
    PrintStream out = System.out;
    out.printf("Metadata at scale: %s, %d hosts, %s applications, heap %d MiB (%s)%n", points, hosts, apps,
        Runtime.getRuntime().maxMemory() >> 20, ManagementFactory.getRuntimeMXBean().getVmName());
    out.printf("%-11s %5s %12s | %10s %10s %10s %12s %12s %10s %10s | %10s %10s %10s %12s %12s %10s %10s %10s %10s "
        + "%10s%n",
        "M x R", "apps", "blocks", "worker B/b", "1-byte B/b", "copy B/b", "puts/s", "lookups/s", "ends/s", "commits/s",
        "master B/b", "master MiB",
        "wave B/b", "reports/s", "ends ms", "ends B/b", "notices", "placements", "told ms", "send CPU s");
    List<String> byClass = new ArrayList<>();
    List<String> masterByClass = new ArrayList<>();
    for (String point : points.split(",")) {
      // a point ending in "m" measures the master alone (its worker's blocks would not fit this heap), "w" the worker
      boolean masterOnly = point.trim().endsWith("m");
      boolean workerOnly = point.trim().endsWith("w");
      // "n": a worker process whose blocks come over its shared memory and socket, from a client (WireScalePoint)
      boolean overTheWire = point.trim().endsWith("n");
      String[] mr = point.trim().toLowerCase(Locale.ROOT).replaceAll("[mwn]", "").split("x");
      int maps = Integer.parseInt(mr[0]);
      int reduces = Integer.parseInt(mr[1]);
      if (overTheWire) {
        WireScalePoint.Result r = WireScalePoint.measure(maps, reduces, out);
        out.printf("%-11s %5s %,12d | worker process, blocks put by a client: %.1f B/block after the puts, %.1f after "
            + "the maps' ends; master %.1f B/block; puts/s %,.0f, map ends/s %,.0f%n", maps + "x" + reduces, "1",
            r.blocks(), r.workerAfterPuts(), r.workerAfterEnds(), r.masterAfterEnds(), r.putsPerSecond(),
            r.endsPerSecond());
        byClass.add(String.format("%-11s worker process, 1 byte put by a client, after the puts: %s%n%-11s after the "
            + "maps' ends: %s", maps + "x" + reduces, r.workerByClassAfterPuts(), "", r.workerByClass()));
        continue;
      }
      Worker none = new Worker("-", Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, "not measured");
      Worker w = masterOnly ? none : worker(maps, reduces, 0, false);
      Worker oneByte = masterOnly ? none : worker(maps, reduces, 1, false);
      Worker copies = masterOnly ? none : worker(maps, reduces, 1, true);
      byClass.add(String.format("%-11s empty: %s%n%-11s 1 byte: %s%n%-11s 1-byte copies: %s", maps + "x" + reduces,
          w.heapByClass(), "", oneByte.heapByClass(), "", copies.heapByClass()));
      if (workerOnly) {
        out.printf("%-11s %5s %,12d | %10s %10s %10s %,12.0f %,12.0f %,10.0f %,10.0f | placed again in %,.0f ms%n",
            maps + "x" + reduces, "-", (long) maps * reduces, w.bytesPerBlock(), oneByte.bytesPerBlock(),
            copies.bytesPerBlock(), w.putsPerSecond(), w.lookupsPerSecond(), w.endsPerSecond(), w.commitsPerSecond(),
            oneByte.placeMillis());
        continue;
      }
      for (String a : apps.split(",")) {
        int applications = Integer.parseInt(a.trim());
        if (applications > maps) {
          continue;
        }
        Master m = master(maps, reduces, hosts, applications);
        out.printf("%-11s %5d %,12d | %10s %10s %10s %,12.0f %,12.0f %,10.0f %,10.0f | %10.1f %10.1f %10.1f %,12.0f "
            + "%,12.1f %10.1f %,10d %,10d %,10.0f %10.1f%n", maps + "x" + reduces, applications,
            (long) maps * reduces, w.bytesPerBlock(), oneByte.bytesPerBlock(), copies.bytesPerBlock(),
            w.putsPerSecond(), w.lookupsPerSecond(), w.endsPerSecond(), w.commitsPerSecond(), m.bytesPerBlock(),
            m.bytesPerBlock() * maps * reduces / (1 << 20), m.inFlightPerBlock(), m.reportsPerSecond(),
            m.placeMillis(), m.endsAllocatedPerBlock(), m.notices(), m.placementsSent(), m.noticedMillis(),
            m.sendingSeconds());
        masterByClass.add(String.format("%-11s %d apps: %s", maps + "x" + reduces, applications, m.heapByClass()));
      }
    }
    out.println("Worker heap per block by class (what each class grew by over the puts, by the class histogram; at "
        + "least a byte a block):");
    byClass.forEach(out::println);
    out.println("Master heap per block by class (what each class grew by until every map ended and every message was "
        + "sent, by the class histogram; at least 0.05 bytes a block):");
    masterByClass.forEach(out::println);
  }

  /** {@code heapByClass}: what a class histogram after the puts shows per stored block. */
  private record Worker(String bytesPerBlock, double putsPerSecond, double lookupsPerSecond, double placeMillis,
      double endsPerSecond, double commitsPerSecond, String heapByClass) {}

  /**
   * What the master's state took once every map ended, and per block of the first wave of maps while their reports
   * waited for their ends; the map ends' and placements' time, and what they allocated, per block; the
   * notices and placements the workers were sent, how long after the first map's end the last one arrived (the one
   * endpoint standing in for the workers decodes them all, on the same cores), and the CPU the master's threads that
   * send to workers took.
   */
  private record Master(double bytesPerBlock, double inFlightPerBlock, double reportsPerSecond, double placeMillis,
      double endsAllocatedPerBlock, long notices, long placementsSent, double noticedMillis, double sendingSeconds,
      String heapByClass) {}

  /**
   * The one endpoint every simulated worker's address names: it answers each message the master sends a worker
   * (the notices of finished maps' blocks, the placements) as a worker would, and counts them.
   */
  private static final class WorkerSink extends RequestDispatcher {
    static final LongAdder NOTICES = new LongAdder();
    static final LongAdder PLACEMENTS = new LongAdder();
    private static volatile long lastNanos = System.nanoTime();

    static void reset() {
      NOTICES.reset();
      PLACEMENTS.reset();
    }

    @Override
    protected void onRequest(ChannelHandlerContext ctx, InboundFrame frame) {
      if (frame.message() instanceof ShuffleScheduled) {
        PLACEMENTS.increment();
      } else {
        NOTICES.increment();
      }
      lastNanos = System.nanoTime();
      reply(ctx, frame.requestId(), new Ack());
    }

    /**
     * Waits until {@code placements} placements have arrived (each application's, at every worker) and then no
     * message for {@code quiet}; returns when the last one arrived, by nanoTime.
     */
    static long settled(long placements, Duration quiet) throws InterruptedException {
      long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
      while (PLACEMENTS.sum() < placements && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      while (System.nanoTime() - lastNanos < quiet.toNanos()) {
        Thread.sleep(20);
      }
      return lastNanos;
    }
  }

  /** One worker's store taking every block of a placed shuffle, its limit derived from the heap. */
  static Worker worker(int maps, int reduces, int blockBytes, boolean copies) throws Exception {
    Path dir = Files.createTempDirectory("scache-scale");
    // the blocks' aligned bytes, and a segment's slack for the copies' regions of M blocks each
    long reserve = Math.max(8L << 20, (long) maps * reduces * MemoryPool.ALIGNMENT * Math.min(1, blockBytes))
        + (copies ? 64L << 20 : 0);
    try (MemoryPool pool = new MemoryPool(dir, "scale", reserve, 64L << 20, false)) {
      WorkerStorage storage = new WorkerStorage(pool, java.util.Optional.empty(),
          org.scache.worker.spill.SpillPolicy.contextAware(), new org.scache.worker.store.PlacementBook(),
          org.scache.common.Clock.SYSTEM, new org.scache.worker.counters.WorkerCounters(), 1 << 20,
          BlockQuota.of(0, 1.0, Runtime.getRuntime().maxMemory()));
      try {
        BlockPuts puts = storage.puts();
        BlockStore store = storage.store();
        // the shuffle is placed, as it is for most of its blocks on a worker: each block has its round
        List<ReduceAssignment> assignments = new ArrayList<>(reduces);
        WorkerInfo self = new WorkerInfo("scale-w", "127.0.0.1", 1);
        for (int r = 0; r < reduces; r++) {
          assignments.add(new ReduceAssignment(r, self, r / 16, ReduceAssignment.UNKNOWN_SIZE));
        }
        store.scheduled(new ShufflePlacement(APP, 0, "scale", assignments), System.currentTimeMillis(),
            List.of());
        Map<String, Long> before = liveByClass();
        long t0 = System.nanoTime();
        long stored = 0;
        String refused = null;
        if (copies) {
          // each reduce's input prefetched from the maps' holders: one landing of its M blocks
          byte[] bytes = new byte[maps * blockBytes];
          for (int r = 0; r < reduces && refused == null; r++) {
            String app = new String(APP_BYTES, StandardCharsets.UTF_8);
            List<BlockSize> layout = new ArrayList<>(maps);
            for (int m = 0; m < maps; m++) {
              layout.add(new BlockSize(new BlockId(app, 0, m, 0, r), blockBytes));
            }
            int landed = storage.copies().land(layout, io.netty.buffer.Unpooled.wrappedBuffer(bytes));
            stored += landed;
            if (landed < maps) {
              refused = "refused at " + stored;
            }
          }
        }
        outer:
        for (int m = 0; m < maps && !copies; m++) {
          for (int r = 0; r < reduces; r++) {
            try {
              // each put's id as the wire decodes it: its own copy of the application's name
              PendingPut put = puts.begin(new BlockId(new String(APP_BYTES, StandardCharsets.UTF_8), 0, m, 0, r),
                  blockBytes);
              if (blockBytes > 0) {
                put.write(io.netty.buffer.Unpooled.wrappedBuffer(new byte[blockBytes]));
              }
              puts.commit(put);
              stored++;
            } catch (ScacheException e) {
              refused = "refused at " + stored;
              break outer;
            }
          }
        }
        double putSeconds = (System.nanoTime() - t0) / 1e9;
        long heap = grownSince(before);
        long t1 = System.nanoTime();
        long found = 0;
        for (int m = 0; m < maps && found < stored; m++) {
          for (int r = 0; r < reduces && found < stored; r++) {
            if (store.contains(new BlockId(APP, 0, m, 0, r))) {
              found++;
            }
          }
        }
        double lookupSeconds = (System.nanoTime() - t1) / 1e9;
        String heapByClass = grownByClass(before, stored, 1);
        // the shuffle placed again once its blocks are held, as when a placement comes after a wave of maps or the
        // master moves reduces at the maps' end: every reduce in another round
        List<ReduceAssignment> again = new ArrayList<>(reduces);
        for (int r = 0; r < reduces; r++) {
          again.add(new ReduceAssignment(r, self, r / 8, ReduceAssignment.UNKNOWN_SIZE));
        }
        long tp = System.nanoTime();
        store.scheduled(new ShufflePlacement(APP, 0, "scale", again), System.currentTimeMillis(), List.of());
        double placeMillis = (System.nanoTime() - tp) / 1e6;
        // each map's end declared, as the master tells its holder, then each reduce's commit, which frees its input
        ShuffleKey shuffle = new ShuffleKey(APP, 0);
        long t2 = System.nanoTime();
        for (int m = 0; m < maps; m++) {
          store.mapFinished(shuffle, m, 0);
        }
        double endSeconds = (System.nanoTime() - t2) / 1e9;
        long t3 = System.nanoTime();
        long freed = 0;
        for (int r = 0; r < reduces; r++) {
          freed += store.reduceCommitted(shuffle, r);
        }
        double commitSeconds = (System.nanoTime() - t3) / 1e9;
        if (freed != stored) {
          throw new IllegalStateException("the commits freed " + freed + " of " + stored + " blocks");
        }
        String perBlock = refused != null ? refused : String.format("%.1f", (double) heap / Math.max(1, stored));
        return new Worker(perBlock, stored / putSeconds, found / lookupSeconds, placeMillis, maps / endSeconds,
            reduces / commitSeconds, heapByClass);
      } finally {
        storage.close();
      }
    }
  }

  /** A master taking every block's size from {@code hosts} workers and placing every reduce. */
  static Master master(int maps, int reduces, int hosts, int applications) throws Exception {
    ScacheConf conf = ScacheConf.empty().with(ScacheOptions.SECURITY_CLUSTER_SECRET, "bench")
        .with(ScacheOptions.MASTER_BIND_HOST, "127.0.0.1").with(ScacheOptions.MASTER_PORT, 0)
        .with(ScacheOptions.MASTER_WORKER_EXPIRY.key(), "1h")
        // the applications are registered at once, from this one process
        .with(ScacheOptions.MASTER_APPLICATIONS_REGISTRATIONS_PER_SECOND.key(), "1000000");
    WorkerSink.reset();
    try (ScacheServer sink = ScacheServer.start("scale-workers", "127.0.0.1", 0, TransportSettings.from(conf),
        WorkerSink::new); ScacheMaster master = ScacheMaster.start(conf)) {
      InProcessRequests requests = master.inProcess();
      List<WorkerInfo> workers = new ArrayList<>();
      for (int h = 0; h < hosts; h++) {
        // every worker id at the one endpoint that answers for them all: the master's notices are real messages
        WorkerInfo w = new WorkerInfo("scale-w" + h, "127.0.0.1", sink.port());
        workers.add(w);
        requests.registerWorker(w, 1L << 30, 0);
      }
      int mapsPerApp = maps / applications;
      for (int a = 0; a < applications; a++) {
        requests.registerApplication(app(a), "secret".getBytes(StandardCharsets.UTF_8));
        requests.registerShuffle(new ShuffleSpec(app(a), 0, mapsPerApp, reduces, PartitionerKind.HASH,
            System.currentTimeMillis()));
      }
      // the maps run in waves of two a host: a wave's maps put their blocks (the master takes their reports) and
      // end; the master places each shuffle on the way, when enough of its maps have ended
      int wave = Math.max(1, 2 * hosts);
      Map<String, Long> before = liveByClass();
      com.sun.management.ThreadMXBean thread = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      long sendingBefore = cpuNanos(thread, "scache-master-client");
      long reportNanos = 0;
      long endNanos = 0;
      long endAllocated = 0;
      long reports = 0;
      double inFlight = Double.NaN;
      long t1 = System.nanoTime();
      for (int a = 0; a < applications; a++) {
        for (int first = 0; first < mapsPerApp; first += wave) {
          int last = Math.min(mapsPerApp, first + wave);
          long t0 = System.nanoTime();
          for (int m = first; m < last; m++) {
            String holder = workers.get((a * mapsPerApp + m) % hosts).workerId();
            List<BlockSize> batch = new ArrayList<>(Math.min(BATCH, reduces));
            for (int r = 0; r < reduces; r++) {
              batch.add(new BlockSize(new BlockId(app(a), 0, m, 0, r), 100 + (m * 31L + r * 17L) % 1000));
              if (batch.size() == BATCH) {
                requests.reportBlocks(holder, batch);
                reports += batch.size();
                batch = new ArrayList<>(BATCH);
              }
            }
            if (!batch.isEmpty()) {
              requests.reportBlocks(holder, batch);
              reports += batch.size();
            }
          }
          reportNanos += System.nanoTime() - t0;
          if (a == 0 && first == 0) {
            // what a wave's reports hold until its maps end
            inFlight = (double) grownSince(before) / ((long) (last - first) * reduces);
          }
          long allocated = thread.getCurrentThreadAllocatedBytes();
          long t2 = System.nanoTime();
          for (int m = first; m < last; m++) {
            requests.mapFinished(app(a), 0, m, 0);
          }
          endNanos += System.nanoTime() - t2;
          endAllocated += thread.getCurrentThreadAllocatedBytes() - allocated;
        }
        long t3 = System.nanoTime();
        ShufflePlacement p = requests.placement(app(a), 0);
        endNanos += System.nanoTime() - t3;
        if (p.assignments().size() != reduces) {
          throw new IllegalStateException(app(a) + " placed " + p.assignments().size() + " of " + reduces);
        }
      }
      double placeMillis = endNanos / 1e6 / applications;
      // the in-process requests run on this thread: what the ends and placements allocated, transient state included
      double endsAllocated = (double) endAllocated / Math.max(1, reports);
      double reportSeconds = reportNanos / 1e9;
      double noticedMillis = (WorkerSink.settled((long) applications * hosts, Duration.ofSeconds(3)) - t1) / 1e6;
      // what the master keeps once every message to the workers has been sent
      long heap = grownSince(before);
      String byClass = grownByClass(before, reports, 0.05);
      double sendingSeconds = (cpuNanos(thread, "scache-master-client") - sendingBefore) / 1e9;
      return new Master((double) heap / Math.max(1, reports), inFlight, reports / reportSeconds, placeMillis,
          endsAllocated, WorkerSink.NOTICES.sum(), WorkerSink.PLACEMENTS.sum(), noticedMillis, sendingSeconds,
          byClass);
    }
  }

  /**
   * The classes whose live bytes grew since {@code before} by at least {@code least} a block, with their growth per
   * block, largest first.
   */
  private static String grownByClass(Map<String, Long> before, long blocks, double least) throws Exception {
    return grownByClass(before, liveByClass(), blocks, least);
  }

  /** What each class grew by from {@code before} to {@code after}, per block, those of at least {@code least}. */
  static String grownByClass(Map<String, Long> before, Map<String, Long> after, long blocks, double least) {
    StringBuilder out = new StringBuilder();
    double total = 0;
    List<Map.Entry<String, Long>> grown = new ArrayList<>();
    after.forEach((name, bytes) -> grown.add(Map.entry(name, bytes - before.getOrDefault(name, 0L))));
    grown.sort(Map.Entry.<String, Long>comparingByValue().reversed());
    for (Map.Entry<String, Long> e : grown) {
      double perBlock = (double) e.getValue() / Math.max(1, blocks);
      if (perBlock >= least) {
        out.append(String.format("%s %.1f, ", e.getKey().substring(e.getKey().lastIndexOf('.') + 1), perBlock));
        total += perBlock;
      }
    }
    return out.append(String.format("together %.1f B", total)).toString();
  }

  /** CPU time of the live threads whose names start with {@code prefix}. */
  private static long cpuNanos(com.sun.management.ThreadMXBean threads, String prefix) {
    long sum = 0;
    for (java.lang.management.ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (t != null && t.getThreadName().startsWith(prefix)) {
        sum += Math.max(0, threads.getThreadCpuTime(t.getThreadId()));
      }
    }
    return sum;
  }

  private static String app(int a) {
    return "scale-app-" + a;
  }

  /**
   * The live heap's bytes by class, from the JVM's class histogram (which collects first and walks the heap, so no
   * garbage is counted).
   */
  private static Map<String, Long> liveByClass() throws Exception {
    return byClass(classHistogram());
  }

  /** The bytes by class of a class histogram as the JVM prints it ({@code GC.class_histogram}). */
  static Map<String, Long> byClass(String histogram) {
    Map<String, Long> bytes = new java.util.HashMap<>();
    for (String line : histogram.split("\n")) {
      // "   1:       1000000       88000000  org.scache.worker.store.StoredBlock"
      String[] f = line.trim().split("\\s+");
      if (f.length >= 4 && f[0].endsWith(":")) {
        bytes.merge(f[3], Long.parseLong(f[2]), Long::sum);
      }
    }
    return bytes;
  }

  /**
   * What the live heap grew by since {@code before}: the growth of each class that grew, so that what the point
   * before let go of meanwhile (a closed daemon's objects, freed once its threads end) is not taken off it.
   */
  private static long grownSince(Map<String, Long> before) throws Exception {
    return grown(before, liveByClass());
  }

  /** What grew from one class histogram to a later one, summed over the classes that grew. */
  static long grown(Map<String, Long> before, Map<String, Long> after) {
    long grown = 0;
    for (Map.Entry<String, Long> e : after.entrySet()) {
      grown += Math.max(0, e.getValue() - before.getOrDefault(e.getKey(), 0L));
    }
    return grown;
  }

  /** The JVM's class histogram of the live heap (it collects first). */
  private static String classHistogram() throws Exception {
    ObjectName diagnostics = new ObjectName("com.sun.management:type=DiagnosticCommand");
    return ManagementFactory.getPlatformMBeanServer().invoke(diagnostics, "gcClassHistogram",
        new Object[] {new String[0]}, new String[] {String[].class.getName()}).toString();
  }
}
