package org.scache.benchmarks.hadoop;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.examples.terasort.TeraValidate;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.util.Tool;
import org.scache.benchmarks.harness.MachineSpeed;
import org.scache.hadoop.MapReduceOptions;
import org.scache.hadoop.MiniScacheYarnCluster;
import org.scache.hadoop.ScacheJob;
import org.scache.hadoop.frq.Shuffle;

/**
 * TeraGen, TeraSort (or another job) on Hadoop's shuffle or through SCache, and TeraValidate, on a
 * {@link SortCluster}, each shown on the console while it runs. A job returns what it measured ({@link SortRun}).
 */
final class TerasortRunner {
  /** TeraGen's records are 100 bytes. */
  static final int ROW_BYTES = 100;

  /**
   * One TeraSort job: its figures from the job history, what the SCache workers did meanwhile, and the machine's
   * speed ({@link MachineSpeed}) just before the job and just after it, so that a pair whose machine changed
   * under it can be told.
   */
  record SortRun(JobFigures job, WorkerTraffic workers, MachineSpeed.Measured speedBefore,
      MachineSpeed.Measured speedAfter) {}

  private final SortCluster cluster;
  private final Console console;
  private final String scacheSlowstart;
  private String remoteReadRate = "";
  private Map<String, String> hadoopJobConf = Map.of();

  /**
   * A runner on {@code cluster}; {@code scacheSlowstart} is the {@code scache.hadoop.reduce.slowstart} of the SCache
   * jobs, blank for SCache's default.
   */
  TerasortRunner(SortCluster cluster, Console console, String scacheSlowstart) {
    this.cluster = cluster;
    this.console = console;
    this.scacheSlowstart = scacheSlowstart;
  }

  /**
   * Sets the {@code scache.hadoop.placement.remote.read.rate} of the SCache jobs (bytes per second, as the option
   * takes them); blank for SCache's default. Returns this runner.
   */
  TerasortRunner withRemoteReadRate(String rate) {
    this.remoteReadRate = rate;
    return this;
  }

  /**
   * Job settings for the jobs on Hadoop's shuffle only (for example what SCache sets for its own jobs, to tell
   * SCache's part of a difference from a setting's). Returns this runner.
   */
  TerasortRunner withHadoopJobConf(Map<String, String> settings) {
    this.hadoopJobConf = Map.copyOf(settings);
    return this;
  }

  /** Writes {@code bytes} of TeraGen rows into {@code dir}, in files of a few splits each. */
  void generate(long bytes, Path dir) throws Exception {
    MiniScacheYarnCluster.deleteRecursively(dir);
    long rows = bytes / ROW_BYTES;
    JobConf conf = cluster.jobConf();
    conf.setInt(MRJobConfig.NUM_MAPS, (int) Math.max(2, Math.min(16, (bytes + 4 * TerasortCluster.SPLIT_BYTES - 1)
        / (4 * TerasortCluster.SPLIT_BYTES))));
    WatchedTool.run("TeraGen", new TeraGen(), conf, new String[] {Long.toString(rows), dir.toUri().toString()},
        console);
  }

  /** Sorts {@code input} into {@code output} with {@code reduces} reduces on {@code shuffle}. */
  SortRun sort(Path input, Path output, Shuffle shuffle, int reduces) throws Exception {
    JobConf conf = cluster.jobConf();
    // TeraSort's partition file is a relative cache file: resolve it against the job's directory on the local FS
    conf.set(MRJobConfig.WORKING_DIR, ".");
    return run("TeraSort", new TeraSort(), conf, input, output, shuffle, reduces);
  }

  /**
   * Runs {@code tool} (arguments: input, output) with {@code reduces} reduces on {@code shuffle}, with
   * {@code conf} (from {@link SortCluster#jobConf}), and returns what the job measured.
   */
  SortRun run(String name, Tool tool, JobConf conf, Path input, Path output, Shuffle shuffle, int reduces)
      throws Exception {
    MiniScacheYarnCluster.deleteRecursively(output);
    conf.setInt(MRJobConfig.NUM_REDUCES, reduces);
    if (shuffle == Shuffle.SCACHE && !scacheSlowstart.isBlank()) {
      conf.set(MapReduceOptions.REDUCE_SLOWSTART.key(), scacheSlowstart.trim());
    }
    if (shuffle == Shuffle.SCACHE && !remoteReadRate.isBlank()) {
      conf.set(MapReduceOptions.PLACEMENT_REMOTE_READ_RATE.key(), remoteReadRate.trim());
    }
    if (shuffle == Shuffle.HADOOP) {
      hadoopJobConf.forEach(conf::set);
    }
    if (shuffle == Shuffle.SCACHE && !ScacheJob.enable(conf)) {
      throw new IllegalStateException("the SCache master is not usable; see " + console.logFile());
    }
    Duration waited = IdleCluster.await(conf, Duration.ofSeconds(60));
    if (waited.toMillis() >= 500) {
      console.detail(String.format(Locale.ROOT, "waited %.1f s for the previous application master to exit",
          waited.toMillis() / 1000.0));
    }
    MachineSpeed.Measured speedBefore = MachineSpeed.measure();
    Map<String, Long> before = cluster.workerStats();
    long cpuBefore = MachineCpu.busyMillis();
    JobID id = WatchedTool.run(name + " (" + shuffle.label() + ")", tool, conf,
        new String[] {input.toUri().toString(), output.toUri().toString()}, console);
    long cpuAfter = MachineCpu.busyMillis();
    WorkerTraffic traffic = WorkerTraffic.between(before, cluster.workerStats());
    MachineSpeed.Measured speedAfter = MachineSpeed.measure();
    Path logs = cluster.containerLogs();
    JobFigures figures = JobFigures.of(shuffle, JobHistoryFile.read(id, conf))
        .withTaskLogs(container -> ContainerLogs.read(logs, container))
        .withMachineCpu(cpuBefore < 0 || cpuAfter < 0 ? -1 : cpuAfter - cpuBefore);
    return new SortRun(figures, shuffle == Shuffle.SCACHE ? traffic : WorkerTraffic.NONE, speedBefore, speedAfter);
  }

  /** Runs TeraValidate on {@code output}; returns the checksum it reports, or fails if the output is not sorted. */
  String validate(Path output, Path report, String label) throws Exception {
    MiniScacheYarnCluster.deleteRecursively(report);
    WatchedTool.run("TeraValidate (" + label + ")", new TeraValidate(), cluster.jobConf(),
        new String[] {output.toUri().toString(), report.toUri().toString()}, console);
    StringBuilder text = new StringBuilder();
    List<Path> parts;
    try (Stream<Path> files = Files.list(report)) {
      parts = files.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList();
    }
    for (Path p : parts) {
      text.append(Files.readString(p, StandardCharsets.UTF_8));
    }
    String checksum = null;
    for (String line : text.toString().split("\n")) {
      String[] kv = line.split("\t", 2);
      if (kv[0].equals("checksum") && kv.length == 2) {
        checksum = kv[1].trim();
      } else if (!line.isBlank()) {
        throw new IllegalStateException("TeraValidate found " + label + " not sorted: " + line);
      }
    }
    if (checksum == null) {
      throw new IllegalStateException("TeraValidate reported no checksum for " + label + ": " + text);
    }
    return checksum;
  }
}
