package org.scache.tez;

import java.time.Duration;
import java.util.List;
import org.scache.common.config.ConfigEntry;
import org.scache.common.config.OptionSet;

/**
 * The Tez adapter's own keys, read from the DAG's configuration (tez-site.xml, in the application master
 * by {@link ScacheDagScheduler}, or on the client by {@link ScacheTezDag}) and carried to the tasks and
 * vertex managers in the payloads they write. The worker and
 * client keys are SCache's own ({@code scache.worker.*}, {@code scache.client.*}).
 */
public final class TezScacheOptions {
  private static final OptionSet OPTIONS = new OptionSet("scache\\.tez\\.[a-z]+(\\.[a-z]+)+",
      "scache.tez.<subsystem>.<name>");

  public static final ConfigEntry<Boolean> ENABLED = OPTIONS.bool("scache.tez.shuffle.enabled", false,
      "The switch: true makes the application master (with tez.am.dag.scheduler.class set to "
          + "org.scache.tez.ScacheDagScheduler) shuffle the partitioned scatter-gather edges of each DAG through "
          + "SCache (deploy-tez.md lists which edges), and DAGs built with ScacheTezDag likewise, when the master "
          + "answers and lists a live worker (otherwise Tez's own shuffle, with one warning per DAG).");
  public static final ConfigEntry<Duration> SCHEDULE_WAIT = OPTIONS.duration("scache.tez.placement.schedule.wait",
      "10s", "How long a consumer vertex's manager waits for the master's placement once every producer has "
          + "finished; past it the consumer's tasks start without a placement and read remotely.");
  public static final ConfigEntry<Duration> READ_ERROR_REPORT_INTERVAL = OPTIONS.duration(
      "scache.tez.input.read.error.report.interval", "3s", "How often a consumer input reports again a producer "
          + "attempt whose block is lost, until a new attempt's output arrives.");
  public static final ConfigEntry<Duration> LOST_INPUT_TIMEOUT = OPTIONS.duration("scache.tez.input.lost.timeout",
      "10m", "Longest time a consumer input waits for a new attempt of a producer whose block is lost; past it "
          + "the input fails.");

  private TezScacheOptions() {}

  /** Every key of the adapter, in declaration order. */
  public static List<ConfigEntry<?>> all() {
    return OPTIONS.all();
  }
}
