package org.scache.benchmarks.hadoop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.scache.benchmarks.hadoop.netns.ClassPaths;
import org.scache.benchmarks.hadoop.netns.NetnsCluster;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.benchmarks.harness.netns.HostProcess;

/**
 * The fault campaign: on the namespaced cluster with two SCache masters elected through ZooKeeper, runs
 * TeraSort and a word count through SCache again and again, undisturbed and with one fault injected
 * while the job runs, and compares every output byte for byte with the output of the same job on
 * Hadoop's shuffle. Prints, per job and fault, the jobs that finished with the right output out of the
 * jobs run, and the median extra job time against the undisturbed runs. Faults (chosen with
 * {@code --faults}):
 * <ul>
 *   <li>{@code master-maps}, {@code master-reduces}: the leading master killed ({@code kill -9}) while the
 *       maps run, or once they are done and the reduces run; it is started again (as a standby) after the job;
 *   <li>{@code node-maps}, {@code node-reduces}: the last node's host lost (every process killed) at the same
 *       points; its NodeManager and worker are started again after the job;
 *   <li>{@code link-prefetch}: the second node's link cut for 20 s while the maps run (and the workers prefetch);
 *   <li>{@code worker-restart}: the last node's NodeManager, with its SCache worker, killed and started again
 *       while the maps run: the blocks it held are gone, and the maps that wrote them must run again;
 *   <li>{@code spill-full}: before the job starts, every node's spill disk (a tmpfs of {@code --spill-disk} bytes
 *       of its own) filled to the last byte and its worker's reserve filled by another application
 *       ({@link ReserveBallast}); the disks are freed 20 s after a worker first refuses a spill for the job (its
 *       first put that finds both full), and the other application's blocks stay until the job has ended. Every
 *       node, because the job's maps may run on any. The run says how many spills the workers refused for the
 *       job: each is a put of the job that had to wait.
 * </ul>
 * Runs as root (network namespaces); every run's client log is kept under the results directory.
 */
public final class FaultCampaign {
  private static final Pattern PROGRESS = Pattern.compile("\\(SCache\\): map\\s+(\\d+)%\\s+reduce\\s+(\\d+)%");
  private static final Duration JOB_TIMEOUT = Duration.ofMinutes(12);
  /** How long after a job's maps are first seen running a fault "during the maps" comes, at the latest. */
  private static final Duration MAP_STAGE_DELAY = Duration.ofSeconds(6);
  /** How long a cut link stays down, and a filled spill disk full. */
  private static final Duration OUTAGE = Duration.ofSeconds(20);
  /** What the worker logs for each block it could not spill. */
  private static final String SPILL_REFUSED = "treating the spill disk as full";
  /** The other application's processes that fill the reserves in the spill-full case, while they run. */
  private static final List<HostProcess> BALLAST = new java.util.concurrent.CopyOnWriteArrayList<>();
  /** Spills refused on every node once the spill-full case had filled the reserves; -1 before. */
  private static final java.util.concurrent.atomic.AtomicInteger REFUSED_AT_FULL =
      new java.util.concurrent.atomic.AtomicInteger(-1);
  private static final List<String> FAULTS = List.of("master-maps", "master-reduces", "node-maps", "node-reduces",
      "link-prefetch", "worker-restart", "spill-full");

  private FaultCampaign() {}

  /** One job: what it runs and on how much input. */
  private record Job(String kind, long bytes, int reduces) {
    String label() {
      return kind + " " + ByteSize.format(bytes);
    }

    String tag() {
      return kind + "-" + ByteSize.tag(bytes);
    }
  }

  /** One run and what came of it. */
  private record Run(Job job, String fault, int repetition, String outcome, double seconds, String injected) {}

  public static void main(String[] args) throws Exception {
    Options options = new Options("Fault campaign: SCache jobs with the leading master, a node or a link failing "
        + "while they run, every output compared with Hadoop's shuffle (root)",
        new Options.Option("jobs", "terasort:192m:6,wordcount:64m:3", "jobs, comma-separated, each "
            + "terasort|wordcount:SIZE:REDUCES"),
        new Options.Option("faults", String.join(",", FAULTS), "faults, comma-separated, of " + FAULTS),
        new Options.Option("repetitions", "5", "runs of each job with each fault, and undisturbed"),
        new Options.Option("nodes", "3", "NodeManager hosts"),
        new Options.Option("reserve", "512m", "memory each worker reserves for blocks"),
        new Options.Option("spill-disk", "1g", "size of each worker's spill disk of its own (a tmpfs); 0: the "
            + "JVM's temporary directory, and no spill-full fault"),
        new Options.Option("results", "target/fault-campaign", "where the runs' logs and results.csv go"));
    try {
      if (!options.parse(args)) {
        return;
      }
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
    }
    List<Job> jobs = new ArrayList<>();
    for (String spec : options.get("jobs").split(",")) {
      String[] p = spec.trim().split(":");
      if (p.length != 3 || !(p[0].equals("terasort") || p[0].equals("wordcount"))) {
        throw new IllegalArgumentException("a job is terasort|wordcount:SIZE:REDUCES, not " + spec);
      }
      jobs.add(new Job(p[0], ByteSize.parse(p[1]), Integer.parseInt(p[2])));
    }
    List<String> faults = new ArrayList<>();
    for (String f : options.get("faults").split(",")) {
      if (!FAULTS.contains(f.trim())) {
        throw new IllegalArgumentException("unknown fault " + f + "; faults: " + FAULTS);
      }
      faults.add(f.trim());
    }
    int repetitions = options.getInt("repetitions");
    long spillDisk = ByteSize.parse(options.get("spill-disk"));
    if (spillDisk == 0 && faults.contains("spill-full")) {
      throw new IllegalArgumentException("the spill-full fault needs spill disks of their own (--spill-disk)");
    }
    Path module = Path.of("").toAbsolutePath();
    Path results = module.resolve(options.get("results"));
    Files.createDirectories(results);
    long started = System.nanoTime();
    List<Run> runs = new ArrayList<>();
    say("starting the namespaced cluster: " + options.get("nodes") + " nodes, two SCache masters and ZooKeeper; "
        + "workers reserve " + options.get("reserve") + (spillDisk > 0 ? " and spill to a disk of "
        + options.get("spill-disk") + " each" : ""));
    try (NetnsCluster cluster = NetnsCluster.start(module.resolve("target").resolve("fault-cluster"),
        options.getInt("nodes"), ByteSize.parse(options.get("reserve")), ClassPaths.of(module), 2, spillDisk)) {
      for (Job job : jobs) {
        Path data = cluster.runDir().resolve("data");
        Path input = data.resolve(job.tag() + "-input");
        Path expected = data.resolve(job.tag() + "-expected");
        say(job.label() + ": input and the expected output, on Hadoop's shuffle");
        Run reference = runJob(cluster, results, job, "reference", 0, input, expected, null, "hadoop");
        if (!reference.outcome().equals("same")) {
          throw new IllegalStateException("the reference run on Hadoop's shuffle did not succeed: " + reference);
        }
        for (int rep = 1; rep <= repetitions; rep++) {
          List<String> order = new ArrayList<>();
          order.add("none");
          order.addAll(faults);
          for (String fault : order) {
            Run run = runJob(cluster, results, job, fault, rep, input, data.resolve(job.tag() + "-out"), expected,
                "scache");
            runs.add(run);
            say(String.format(Locale.ROOT, "%s, %s, run %d: %s in %.1f s%s", job.label(), fault, rep, run.outcome(),
                run.seconds(), run.injected().isEmpty() ? "" : " (" + run.injected() + ")"));
            writeCsv(results.resolve("results.csv"), runs);
          }
        }
      }
    }
    String summary = summary(runs);
    Files.writeString(results.resolve("summary.txt"), summary, StandardCharsets.UTF_8);
    System.out.println();
    System.out.print(summary);
    say(String.format(Locale.ROOT, "campaign done in %.0f min; every run: %s", (System.nanoTime() - started) / 6e10,
        results.resolve("results.csv")));
  }

  /** Runs one job as the cluster's job client, injecting {@code fault} when its progress calls for it. */
  private static Run runJob(NetnsCluster cluster, Path results, Job job, String fault, int rep, Path input,
      Path output, Path expected, String shuffle) throws Exception {
    String name = "campaign-" + job.tag() + "-" + fault + "-" + rep;
    AtomicReference<String> injected = new AtomicReference<>("");
    AtomicReference<String> last = new AtomicReference<>("");
    AtomicReference<Thread> injection = new AtomicReference<>();
    List<String> args = new ArrayList<>(List.of("--cluster", cluster.runDir().toString(), "--job", job.kind(),
        "--size", Long.toString(job.bytes()), "--reduces", Integer.toString(job.reduces()), "--shuffle", shuffle,
        "--input", input.toString(), "--output", output.toString()));
    if (expected != null) {
      args.addAll(List.of("--expected", expected.toString()));
    }
    REFUSED_AT_FULL.set(-1);
    if (fault.equals("spill-full")) {
      fillSpillDisksAndReserves(cluster);
    }
    long t = System.nanoTime();
    if (fault.equals("spill-full")) {
      injected.set("before the job");
      Thread th = new Thread(() -> freeSpillDisksAfterRefusals(cluster, injected, t), "inject-" + fault);
      injection.set(th);
      th.start();
    }
    int code = cluster.runClient(name, CampaignJob.class.getName(), args, JOB_TIMEOUT, line -> {
      if (line.contains("CAMPAIGN ")) {
        last.set(line.substring(line.indexOf("CAMPAIGN ") + 9).trim());
      }
      Matcher m = PROGRESS.matcher(line);
      if (!m.find() || fault.equals("none") || fault.equals("reference") || fault.equals("spill-full")) {
        return;
      }
      int map = Integer.parseInt(m.group(1));
      int reduce = Integer.parseInt(m.group(2));
      if (fault.endsWith("-reduces")) {
        // the reduces read as soon as the maps are done (their JVMs started during the maps)
        if (map == 100 && reduce < 100) {
          injectOnce(cluster, fault, injected, injection, String.format(Locale.ROOT, "at map 100%% reduce %d%%, %.0f s",
              reduce, (System.nanoTime() - t) / 1e9), 0);
        }
      } else if (map < 100) {
        // progress is polled, and a short map stage can go from 0 % to 100 % between two polls: the fault
        // comes MAP_STAGE_DELAY after the job's maps are first seen, or at the first progress past 20 %
        long delay = map >= 20 ? 0 : MAP_STAGE_DELAY.toMillis();
        injectOnce(cluster, fault, injected, injection, String.format(Locale.ROOT, "%.0f s after map %d%%, %.0f s",
            delay / 1e3, map, (System.nanoTime() - t) / 1e9 + delay / 1e3), delay);
      }
    });
    double seconds = (System.nanoTime() - t) / 1e9;
    Thread th = injection.get();
    if (th != null) {
      if (fault.equals("spill-full")) {
        injected.updateAndGet(w -> w.contains("first refusal") ? w : w + "; job ended");
      }
      th.join();
    }
    copyLog(cluster, results, name);
    String outcome = code == 0 ? "same" : code == 3 ? "different" : last.get().isEmpty() ? "no-answer (" + code + ")"
        : "failed";
    if (!fault.equals("none") && !fault.equals("reference") && injected.get().isEmpty()) {
      outcome = outcome + ", fault-not-injected";
    }
    String what = injected.get();
    if (fault.equals("spill-full") && REFUSED_AT_FULL.get() >= 0) {
      what = what + "; " + (refusedSpills(cluster) - REFUSED_AT_FULL.get()) + " spills refused for the job";
    }
    restore(cluster, fault);
    if (code == 0 && last.get().startsWith("same ")) {
      seconds = Double.parseDouble(last.get().substring(5).trim());
    }
    return new Run(job, fault, rep, outcome, seconds, what);
  }

  /** Injects {@code fault} {@code delayMillis} from now, unless it was already (or is about to be) injected. */
  private static void injectOnce(NetnsCluster cluster, String fault, AtomicReference<String> injected,
      AtomicReference<Thread> injection, String when, long delayMillis) {
    if (!injected.compareAndSet("", when)) {
      return;
    }
    Thread th = new Thread(() -> {
      try {
        Thread.sleep(delayMillis);
      } catch (InterruptedException e) {
        return;
      }
      inject(cluster, fault);
    }, "inject-" + fault);
    injection.set(th);
    th.start();
  }

  private static void inject(NetnsCluster cluster, String fault) {
    try {
      switch (fault) {
        case "master-maps", "master-reduces" -> {
          int leader = cluster.leadingMaster();
          if (leader < 0) {
            say("  no master leads; nothing to kill");
            return;
          }
          say("  killing master " + (leader + 1) + " (the leader)");
          cluster.killMaster(leader);
        }
        case "node-maps", "node-reduces" -> {
          String node = cluster.nodeNames().get(cluster.nodeNames().size() - 1);
          say("  losing " + node);
          cluster.loseNode(node);
        }
        case "worker-restart" -> {
          String node = cluster.nodeNames().get(cluster.nodeNames().size() - 1);
          say("  restarting " + node + "'s NodeManager and worker, its blocks gone");
          cluster.restartNodeManager(node);
        }
        case "link-prefetch" -> {
          String node = cluster.nodeNames().get(Math.min(1, cluster.nodeNames().size() - 1));
          say("  cutting " + node + "'s link for " + OUTAGE.toSeconds() + " s");
          cluster.cutLink(node, OUTAGE);
        }
        default -> throw new IllegalArgumentException(fault);
      }
    } catch (IOException | InterruptedException e) {
      say("  the fault could not be injected: " + e);
    }
  }

  /**
   * Fills every node's spill disk, then every worker's reserve with the blocks of another application, and notes
   * the spills refused so far (the other application's).
   */
  private static void fillSpillDisksAndReserves(NetnsCluster cluster) throws IOException, InterruptedException {
    Path release = cluster.runDir().resolve("ballast.release");
    Files.deleteIfExists(release);
    long filled = 0;
    for (String node : cluster.nodeNames()) {
      filled += cluster.fillSpillDisk(node);
    }
    for (String node : cluster.nodeNames()) {
      BALLAST.add(cluster.startClient("ballast-" + node + "-" + System.currentTimeMillis(),
          ReserveBallast.class.getName(), List.of("--cluster", cluster.runDir().toString(), "--worker",
              node + ":" + NetnsCluster.WORKER_PORT, "--release", release.toString())));
    }
    List<String> held = new ArrayList<>();
    for (HostProcess ballast : BALLAST) {
      ballast.awaitLog("a full reserve", l -> l.startsWith("BALLAST full"), 1, Duration.ofSeconds(60));
      String line = lastLine(ballast, "BALLAST full: ");
      held.add(line.substring("BALLAST full: ".length(), line.indexOf(" held")));
    }
    REFUSED_AT_FULL.set(refusedSpills(cluster));
    say("  every spill disk filled (" + ByteSize.format(filled) + " written) and every reserve (" + held
        + " held by another application)");
  }

  /** Frees the spill disks {@link #OUTAGE} after a worker first refuses a spill for the job (or when it ends). */
  private static void freeSpillDisksAfterRefusals(NetnsCluster cluster, AtomicReference<String> injected,
      long jobStart) {
    try {
      long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
      while (refusedSpills(cluster) <= REFUSED_AT_FULL.get() && System.nanoTime() < deadline
          && !injected.get().contains("job ended")) {
        Thread.sleep(250);
      }
      double first = (System.nanoTime() - jobStart) / 1e9;
      if (!injected.get().contains("job ended")) {
        say(String.format(Locale.ROOT, "  a worker refused its first spill for the job at %.0f s; the disks stay "
            + "full for %d s more", first, OUTAGE.toSeconds()));
        injected.set(String.format(Locale.ROOT, "before the job; first refusal at %.0f s", first));
        Thread.sleep(OUTAGE.toMillis());
      }
    } catch (IOException | InterruptedException e) {
      say("  cannot follow the workers' spills: " + e);
    } finally {
      for (String node : cluster.nodeNames()) {
        try {
          cluster.freeSpillDisk(node);
        } catch (IOException e) {
          say("  cannot free " + node + "'s spill disk: " + e);
        }
      }
    }
  }

  private static int refusedSpills(NetnsCluster cluster) throws IOException {
    int n = 0;
    for (String node : cluster.nodeNames()) {
      n += cluster.nodeManagerLogLines(node, SPILL_REFUSED);
    }
    return n;
  }

  private static String lastLine(HostProcess p, String prefix) throws IOException {
    String last = "";
    for (String line : Files.readAllLines(p.log(), StandardCharsets.ISO_8859_1)) {
      if (line.startsWith(prefix)) {
        last = line;
      }
    }
    return last;
  }

  /**
   * Puts back what the fault took: a master started again, a node started again, the other application's blocks
   * released.
   */
  private static void restore(NetnsCluster cluster, String fault) throws IOException, InterruptedException {
    if (!BALLAST.isEmpty()) {
      Files.writeString(cluster.runDir().resolve("ballast.release"), "");
      for (HostProcess ballast : BALLAST) {
        try {
          ballast.awaitLog("its release", l -> l.startsWith("BALLAST released"), 1, Duration.ofSeconds(60));
        } catch (IOException e) {
          say("  the other application did not release its blocks: " + e.getMessage());
        }
        cluster.stopClient(ballast, Duration.ofSeconds(10));
      }
      BALLAST.clear();
    }
    if (fault.startsWith("master-")) {
      for (int i = 0; i < cluster.masterCount(); i++) {
        if (!cluster.masterAlive(i)) {
          cluster.restartMaster(i);
        }
      }
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (cluster.leadingMaster() < 0 && System.nanoTime() < deadline) {
        Thread.sleep(500);
      }
    } else if (fault.startsWith("node-")) {
      cluster.restartNode(cluster.nodeNames().get(cluster.nodeNames().size() - 1));
    }
    // the workers register (again) with the leader within a few heartbeats
    Thread.sleep(5000);
  }

  private static void copyLog(NetnsCluster cluster, Path results, String name) {
    Path log = cluster.runDir().resolve("logs").resolve(name + ".log");
    try {
      if (Files.exists(log)) {
        Files.copy(log, results.resolve(name + ".log"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      say("  cannot keep " + log + ": " + e);
    }
  }

  private static void writeCsv(Path file, List<Run> runs) throws IOException {
    StringBuilder b = new StringBuilder("job,fault,repetition,outcome,seconds,injected\n");
    for (Run r : runs) {
      b.append(r.job().tag()).append(',').append(r.fault()).append(',').append(r.repetition()).append(',')
          .append(r.outcome().replace(',', ';')).append(',')
          .append(String.format(Locale.ROOT, "%.1f", r.seconds())).append(',')
          .append(r.injected().replace(',', ';')).append('\n');
    }
    Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
  }

  /**
   * Per job and fault: right outputs of runs, wrong ones, failed ones, median time and extra over undisturbed. Runs
   * whose fault could not be injected (the job passed the point before it was seen) are left out.
   */
  static String summary(List<Run> runs) {
    Map<String, List<Run>> groups = new LinkedHashMap<>();
    for (Run r : runs) {
      groups.computeIfAbsent(r.job().label() + "|" + r.fault(), k -> new ArrayList<>()).add(r);
    }
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-18s %-15s %9s %9s %7s %10s %10s%n", "job",
        "fault", "right/run", "wrong", "failed", "median s", "extra s"));
    for (Map.Entry<String, List<Run>> e : groups.entrySet()) {
      List<Run> rs = e.getValue();
      String[] key = e.getKey().split("\\|");
      rs = rs.stream().filter(r -> !r.outcome().contains("fault-not-injected")).toList();
      if (rs.isEmpty()) {
        continue;
      }
      long right = rs.stream().filter(r -> r.outcome().startsWith("same")).count();
      long wrong = rs.stream().filter(r -> r.outcome().startsWith("different")).count();
      double median = median(rs.stream().filter(r -> r.outcome().startsWith("same")).toList());
      double base = median(groups.getOrDefault(key[0] + "|none", List.of()).stream()
          .filter(r -> r.outcome().startsWith("same")).toList());
      b.append(String.format(Locale.ROOT, "%-18s %-15s %9s %9d %7d %10.1f %10s%n", key[0], key[1],
          right + "/" + rs.size(), wrong, rs.size() - right - wrong, median,
          key[1].equals("none") || Double.isNaN(base) || Double.isNaN(median) ? "-"
              : String.format(Locale.ROOT, "%+.1f", median - base)));
    }
    return b.toString();
  }

  private static double median(List<Run> rs) {
    if (rs.isEmpty()) {
      return Double.NaN;
    }
    List<Double> s = rs.stream().map(Run::seconds).sorted(Comparator.naturalOrder()).toList();
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  private static void say(String line) {
    System.out.printf(Locale.ROOT, "[%tT] %s%n", System.currentTimeMillis(), line);
  }
}
