package org.scache.hadoop;

import java.time.Duration;
import java.util.List;
import org.scache.common.config.ConfigEntry;
import org.scache.common.config.OptionSet;
import org.scache.hadoop.appmaster.ScacheAppMaster;

/**
 * The MapReduce adapter's own keys, set in mapred-site.xml or a job's configuration. The keys every
 * YARN adapter reads are in {@link org.scache.yarn.YarnOptions}; the worker and client keys are
 * SCache's own.
 */
public final class MapReduceOptions {
  private static final OptionSet OPTIONS = new OptionSet("scache\\.(enabled|hadoop(\\.[a-z]+)+)",
      "scache.enabled or scache.hadoop.<subsystem>.<name>");

  public static final ConfigEntry<Boolean> ENABLED = OPTIONS.bool("scache.enabled", false,
      "The job switch: true in a MapReduce job's configuration makes its shuffle go through SCache. The decision "
          + "is made once per job: by ScacheAppMaster at job start, or by ScacheJob.enable at submission; when the "
          + "master cannot be reached the job runs on Hadoop's own shuffle with one warning. False: Hadoop's shuffle.");
  public static final ConfigEntry<Duration> REDUCE_POLL_INTERVAL = OPTIONS.duration(
      "scache.hadoop.reduce.events.poll.interval", "500ms", "How often a reduce asks the application master for "
          + "map completion events while it waits for maps.");
  public static final ConfigEntry<Duration> REDUCE_FETCH_FAILURE_REPORT_INTERVAL = OPTIONS.duration(
      "scache.hadoop.reduce.fetch.failure.report.interval", "3s", "How often a reduce reports again a map whose "
          + "SCache block is lost, until the application master re-runs the map.");
  public static final ConfigEntry<Duration> REDUCE_LOST_MAP_TIMEOUT = OPTIONS.duration(
      "scache.hadoop.reduce.lost.map.timeout", "10m", "Longest time a reduce waits for a re-run of a map whose block "
          + "is lost; then the reduce attempt fails instead of hanging.");
  public static final ConfigEntry<Double> REDUCE_INPUT_RETAINED = OPTIONS.fraction("scache.hadoop.reduce.input.retained",
      0.5, "Fraction of a reduce's shuffle memory (mapreduce.reduce.shuffle.input.buffer.percent of its heap) that its "
          + "input may keep in memory through the reduce: an input that fits is merged from memory straight into the "
          + "reduce function, with no merge to local disk first. It is Hadoop's mapreduce.reduce.input.buffer.percent "
          + "(default 0) for jobs that shuffle through SCache; the larger of the two applies. The default keeps at most "
          + "35 % of the heap; 0 gives a reduce function that needs most of its heap all of it, as Hadoop does.");
  public static final ConfigEntry<Double> REDUCE_SLOWSTART = OPTIONS.fraction("scache.hadoop.reduce.slowstart", 0.05,
      "The reduce slow start (mapreduce.job.reduce.slowstart.completedmaps) ScacheAppMaster gives a job that shuffles "
          + "through SCache: the fraction of maps that must finish before reduce containers are requested (and never "
          + "before the master has placed the reduces). SCache jobs get a reduce ramp-up limit of 0, so a reduce only "
          + "takes capacity no pending map is waiting for: its JVM starts while the last maps run, on its placed node, "
          + "as the data moves there. 1.0 holds every reduce until the last map is done, which costs a small job "
          + "the reduces' container allocation and JVM start after its maps.");
  public static final ConfigEntry<Duration> REDUCE_LAUNCH_LEAD = OPTIONS.duration("scache.hadoop.reduce.launch.lead",
      "3s", "What ScacheAppMaster adds, for a container's allocation and start, to the job's own measure of a task "
          + "JVM's start-up (the median, over its finished maps, of the time from a map's JVM start to its output "
          + "collector's; counter MAP_JVM_STARTUP_MILLIS) to decide how long before the last map is expected to end "
          + "it requests the reduces' containers: a reduce's JVM then comes up about when its input, prefetched "
          + "during the maps, is in its node's memory, and holds no container idle while the maps run. The end is "
          + "forecast once a map has finished: each unfinished map ends when it has used the CPU a finished map needed "
          + "(CPU_MILLISECONDS, the median), at its share of the cores the finished maps had together, divided "
          + "among the maps running now, so that a last, partial wave is forecast as much faster as its maps have "
          + "more of the cores (where no map reported its CPU: its launch plus the finished maps' median time), or "
          + "sooner where a running map's progress, at the pace it has shown, reaches its end sooner. A job whose "
          + "maps all run in one wave has no forecast before its first map ends, and its reduces are requested as "
          + "soon as the slow start allows. A lead longer than the maps take gives the slow start alone.");
  public static final ConfigEntry<String> TASK_JAVA_OPTS = OPTIONS.string("scache.hadoop.task.java.opts",
      "-XX:MetaspaceSize=64m", "JVM options added to the administrator's options of the map and reduce containers "
          + "(mapreduce.admin.map.child.java.opts and mapreduce.admin.reduce.child.java.opts) of a job that "
          + "shuffles through SCache; the job's own java opts follow them and win. The default raises the class "
          + "metadata size at which a task JVM first collects: SCache's client takes a task past the JVM's default "
          + "of about 21 MB, where G1 would start a marking cycle and shrink the heap of a task that then needs it "
          + "(5 to 10 times the GC time of a task on Hadoop's shuffle). Empty adds nothing.");
  public static final ConfigEntry<Duration> PLACEMENT_DELAY = OPTIONS.duration("scache.hadoop.placement.delay", "10s",
      "How long a reduce waits for a container on the node the pre-schedule placed it on; after that it takes a "
          + "container on any node and reads its input remotely. The wait counts from the end of the maps. A reduce "
          + "whose node runs an earlier round of the job's reduces also waits while that node frees a container "
          + "(one of its reduces should end, or has just ended) within the time the reduce's remote read would take, "
          + "before or after now.");
  public static final ConfigEntry<Long> PLACEMENT_REMOTE_READ_RATE = OPTIONS.bytes(
      "scache.hadoop.placement.remote.read.rate", "100m", "Bytes per second a reduce is taken to read from another "
          + "node's worker. A reduce waits for a container on its placed node no longer than its input, as the master "
          + "predicted it, takes to read at this rate, and at most scache.hadoop.placement.delay: a reduce with little "
          + "or no input takes the first container it is offered. Set it to a node link's rate on slow networks; 0 "
          + "makes every reduce wait the whole delay.");
  public static final ConfigEntry<Duration> PLACEMENT_SCHEDULE_WAIT = OPTIONS.duration(
      "scache.hadoop.placement.schedule.wait", "30s", "How long after the last map finished the application master "
          + "holds reduce requests waiting for the master's pre-schedule before it requests them without placement.");
  public static final ConfigEntry<Duration> PLACEMENT_POLL_INTERVAL = OPTIONS.duration(
      "scache.hadoop.placement.poll.interval", "250ms", "How often the application master asks the master whether "
          + "its job's reduces are placed, and looks for reduces that have committed, whose input the workers then free.");
  public static final ConfigEntry<Integer> SAMPLING_SAMPLES_PER_REDUCE = OPTIONS.intEntry(
      "scache.hadoop.sampling.samples.per.reduce", 100, "For a job with a range or custom partitioner: records the "
          + "application master samples from each map's input per reduce (the paper's s; it keeps s × reduces per "
          + "split) to predict the reduce sizes before the maps finish.");
  public static final ConfigEntry<Long> SAMPLING_READ_PER_SPLIT = OPTIONS.bytes("scache.hadoop.sampling.read.per.split",
      "4m", "How much of each map's input file split the application master reads to sample it, in evenly spaced "
          + "windows; splits that are not plain file splits are read from the start up to 64 records per sample.");

  private MapReduceOptions() {}

  /** Every key, in declaration order. */
  public static List<ConfigEntry<?>> all() {
    return OPTIONS.all();
  }
}
