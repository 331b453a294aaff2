package org.scache.spark;

import java.time.Duration;
import java.util.List;
import org.scache.common.config.ConfigEntry;
import org.scache.common.config.OptionSet;

/**
 * The Spark adapter's own keys, set in {@code spark-defaults.conf} or with {@code --conf}. Every
 * other SCache key is given to the adapter as {@code spark.} followed by the key, for example
 * {@code spark.scache.client.master.address}.
 */
public final class SparkScacheOptions {
  private static final OptionSet OPTIONS = new OptionSet("spark\\.scache\\.[a-z]+(\\.[a-z]+)+",
      "spark.scache.<subsystem>.<name>");

  public static final ConfigEntry<Duration> START_CHECK_TIMEOUT = OPTIONS.duration(
      "spark.scache.start.check.timeout", "5s", "How long the driver waits for the SCache master when the "
          + "application starts. If the master does not answer, or lists no live worker, the whole application "
          + "shuffles with Spark's sort shuffle, and the driver logs one warning.");
  public static final ConfigEntry<String> YARN_AUX_SERVICE = OPTIONS.string("spark.scache.yarn.aux.service.name",
      "scache", "On YARN, the name of SCache's auxiliary service: an executor finds its node's worker in the "
          + "service's metadata, which the NodeManager passes in the environment variable NM_AUX_SERVICE_<name>. "
          + "Elsewhere (standalone, local), an executor's worker is at the executor's host and "
          + "spark.scache.worker.rpc.port.");
  public static final ConfigEntry<Duration> PLACEMENT_WAIT = OPTIONS.duration("spark.scache.placement.wait", "2s",
      "How long the placing scheduler waits for the master's placement of a shuffle when it submits the tasks "
          + "that read it (once every map of the shuffle has ended at the master, whose map ends may move reduces); "
          + "past it the tasks are submitted without SCache's preference.");
  public static final ConfigEntry<Boolean> SAMPLING_ENABLED = OPTIONS.bool("spark.scache.sampling.enabled", false,
      "Sample the map input of range- and custom-partitioned shuffles before their map stage, so that the master "
          + "places their reduces before any map has run; the sampling job reads the map side's input once more. Off, "
          + "such shuffles are predicted by regression once scache.master.schedule.observation.threshold of their maps "
          + "have finished. Worth it where a range partition's input comes mostly from a few maps or partitions are "
          + "far from equal; off by default, since on evenly spread keys the extra read costs more than the earlier "
          + "placement gains (a 512 MiB sortByKey at 40 Mbit/s: 0.99 of the sort shuffle's time on, 0.86 off).");
  public static final ConfigEntry<Boolean> HOLD_BROADCAST_CANDIDATES = OPTIONS.bool(
      "spark.scache.adaptive.hold.copies", true, "Hold back the workers' copies of a Spark SQL join's shuffle to its "
          + "reduces' hosts while adaptive execution may still turn the join into a broadcast join, which reads that "
          + "shuffle where its maps ran (its local shuffle reads): while the other side has written no more than the "
          + "adaptive broadcast threshold. The copies start once that side has written more, or a stage reading the "
          + "shuffle by reduce starts; a reduce that runs meanwhile reads its blocks from their holders. Off, every "
          + "shuffle is copied as its maps end, and copies of one read in place go on until adaptive execution "
          + "re-plans the join.");
  public static final ConfigEntry<Integer> SAMPLES_PER_REDUCE = OPTIONS.intEntry(
      "spark.scache.sampling.samples.per.reduce", 20, "Records sampled from each map's input per reduce "
          + "partition (the paper's s).");
  public static final ConfigEntry<Long> PUT_BUFFER = OPTIONS.bytes("spark.scache.map.put.buffer.bytes", "64m",
      "Bytes of a map task's partitions that may be waiting to be stored on the worker; past it the map waits.");
  public static final ConfigEntry<Long> CHUNK_POOL = OPTIONS.bytes("spark.scache.map.chunk.pool.bytes", "64m",
      "Direct memory (outside the heap) an executor lends, at most at a time, to the chunks its map tasks collect "
          + "their partitions in, reused once their blocks are stored; past it chunks come from the heap, where each "
          + "young collection copies them, and 0 takes them all from the heap. Counts against -XX:MaxDirectMemorySize "
          + "(the heap's size unless set); the chunks in use also count in Spark's execution memory.");

  /** Set by the driver for its executors: not for users. */
  static final String APP_SECRET_KEY = "spark.scache.internal.app.secret";

  private SparkScacheOptions() {}

  /** Every key of the adapter, in declaration order. */
  public static List<ConfigEntry<?>> all() {
    return OPTIONS.all();
  }
}
