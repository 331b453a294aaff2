package org.scache.yarn;

import java.time.Duration;
import java.util.List;
import org.scache.common.config.ConfigEntry;
import org.scache.common.config.OptionSet;

/**
 * The keys every YARN adapter reads (MapReduce and Tez), set in yarn-site.xml or a job's configuration:
 * the name of SCache's auxiliary service, and how long a submission waits for the master.
 */
public final class YarnOptions {
  private static final OptionSet OPTIONS = new OptionSet("scache\\.hadoop\\.[a-z]+(\\.[a-z]+)+",
      "scache.hadoop.<subsystem>.<name>");

  public static final ConfigEntry<String> AUX_SERVICE_NAME = OPTIONS.string("scache.hadoop.aux.service.name", "scache",
      "Name of the SCache auxiliary service in yarn.nodemanager.aux-services; tasks find their node's worker in the "
          + "environment variable the NodeManager sets from this service's metadata.");
  public static final ConfigEntry<Duration> SUBMIT_CHECK_TIMEOUT = OPTIONS.duration(
      "scache.hadoop.submit.check.timeout", "5s", "How long ScacheJob.enable waits for the master to list a live "
          + "worker before the job falls back to Hadoop's shuffle.");

  private YarnOptions() {}

  /** Every key, in declaration order. */
  public static List<ConfigEntry<?>> all() {
    return OPTIONS.all();
  }
}
