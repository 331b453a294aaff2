package org.scache.hadoop.appmaster;

import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.scache.common.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a job's reduce requests until its last map is expected to end within the launch lead: the
 * median start-up of the job's finished map JVMs, as the job measured it on this cluster, plus
 * {@code scache.hadoop.reduce.launch.lead} for the container's allocation and start ({@link MapStageForecast}).
 * A reduce's input is prefetched to its node while the maps run, so a reduce launched earlier would only hold
 * its container and wait for the last maps; launched a JVM start before their end, it comes up as its input lands.
 * While some map
 * has not been launched and none has finished, the requests are held too (no reduce would take a
 * container a pending map needs anyway); a job whose maps all run at once, with none finished, is not
 * held, for want of a forecast. Once released, the requests are never held again.
 */
public final class ReduceLaunchLead {
  private static final Logger LOG = LoggerFactory.getLogger(ReduceLaunchLead.class);

  private final Clock clock;
  private final long marginMillis;
  private final MapProgressRates paces = new MapProgressRates();
  private boolean released;

  ReduceLaunchLead(Clock clock, long marginMillis) {
    this.clock = clock;
    this.marginMillis = marginMillis;
  }

  /** Whether the reduce requests are still held, given the job's map tasks. */
  public boolean holds(Collection<Task> maps) {
    return !released && holdsFor(MapStageForecast.of(maps, paces, clock.millis()));
  }

  boolean holdsFor(List<MapStageForecast.MapRun> maps) {
    if (released) {
      return false;
    }
    long now = clock.millis();
    OptionalLong lastMapEnd = MapStageForecast.lastMapEnd(maps, now);
    long jvmStartup = MapStageForecast.medianJvmStartup(maps);
    long leadMillis = jvmStartup + marginMillis;
    boolean hold;
    if (lastMapEnd.isEmpty()) {
      hold = maps.stream().anyMatch(m -> m.launched() == 0);
    } else {
      hold = lastMapEnd.getAsLong() - now > leadMillis;
    }
    if (!hold) {
      released = true;
      LOG.info("reduces requested: {}", lastMapEnd.isPresent()
          ? "the last map is expected to end in " + (lastMapEnd.getAsLong() - now) + " ms (lead " + leadMillis
              + " ms: a map JVM's start-up " + jvmStartup + " ms, and " + marginMillis + " ms; "
              + SharedCoresPace.of(maps, now).map(Object::toString).orElse("no map reported its CPU") + ")"
          : "every map runs and none has finished, so there is no forecast of their end");
    }
    return hold;
  }
}
