package org.scache.hadoop;

import java.time.Duration;
import java.util.List;
import org.scache.common.config.ConfigEntry;
import org.scache.common.config.OptionSet;

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
  public static final ConfigEntry<Double> REDUCE_INPUT_RETAINED = OPTIONS.fraction(
      "scache.hadoop.reduce.input.retained",
      0.5, "Fraction of a reduce's shuffle memory (mapreduce.reduce.shuffle.input.buffer.percent of its heap) its "
          + "input may keep in memory through the reduce, merged from memory straight into the reduce function instead "
          + "of to local disk first: Hadoop's mapreduce.reduce.input.buffer.percent (default 0) for jobs that shuffle "
          + "through SCache; the larger of the two applies. The default keeps at most 35 % of the heap; 0 leaves it "
          + "all to the reduce function.");
  public static final ConfigEntry<Double> REDUCE_SLOWSTART = OPTIONS.fraction("scache.hadoop.reduce.slowstart", 0.05,
      "The reduce slow start (mapreduce.job.reduce.slowstart.completedmaps) ScacheAppMaster gives a job that shuffles "
          + "through SCache: the fraction of maps that must finish before reduce containers are requested, and never "
          + "before the master has placed the reduces. With a ramp-up limit of 0, a reduce only takes capacity no "
          + "pending map waits for. 1.0 holds every reduce until the last map ends, so reduce containers and JVMs "
          + "start only after the maps.");
  public static final ConfigEntry<Duration> REDUCE_LAUNCH_LEAD = OPTIONS.duration("scache.hadoop.reduce.launch.lead",
      "3s", "ScacheAppMaster requests reduce containers once the last map is forecast to end within this lead plus the "
          + "job's median map JVM start-up, so reduces start as their prefetched input lands. The forecast, from the "
          + "first finished map on, ends each running map when it has used the finished maps' median CPU at its share "
          + "of the cores, or sooner by its progress; until then only the slow start applies.");
  public static final ConfigEntry<String> TASK_JAVA_OPTS = OPTIONS.string("scache.hadoop.task.java.opts",
      "-XX:MetaspaceSize=64m", "JVM options added to the administrator's options of the map and reduce containers "
          + "(mapreduce.admin.map.child.java.opts, mapreduce.admin.reduce.child.java.opts) of a job that shuffles "
          + "through SCache; the job's own java opts follow and win. Empty adds nothing. The default raises the class "
          + "metadata size at which a task JVM first collects above what SCache's client loads, so that G1 does not "
          + "start a marking cycle and shrink a task's heap early.");
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
          + "its job's reduces are placed, and looks for reduces that have committed, whose input the workers then "
              + "free.");
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
