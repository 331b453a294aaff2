package org.scache.hadoop.appmaster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.scache.hadoop.appmaster.MapStageForecast.MapRun;

/**
 * How long a map takes with as many maps beside it as run now, where the job's maps share their nodes'
 * cores. From its finished maps the job knows the CPU a map needs ({@code CPU_MILLISECONDS}, the median)
 * and the share of a core each one had (its CPU over its time); that share times the number of the job's
 * maps that ran beside it, on average over its life, is the cores the maps had together. A later map runs
 * at that capacity divided by the maps running now, at most the share a map has on a core of its own (one,
 * or what a finished map used if more). So a last, partial wave, whose few maps have the cores to
 * themselves, is forecast to run as much faster as it does. On a cluster whose maps each have a core, a map
 * is forecast at its CPU time in every wave: its measured time, less what it spent waiting for its disks or
 * its input, so a last wave of such maps is forecast a little early.
 */
final class SharedCoresPace {
  /** The cores the job's maps had together, the most one map can use, and the CPU (ms) one map needs. */
  private final double cores;
  private final double peakShare;
  private final long cpuMillis;
  private final MapOccupancy occupancy;
  private final int runningNow;

  private SharedCoresPace(double cores, double peakShare, long cpuMillis, MapOccupancy occupancy, int runningNow) {
    this.cores = cores;
    this.peakShare = peakShare;
    this.cpuMillis = cpuMillis;
    this.occupancy = occupancy;
    this.runningNow = runningNow;
  }

  /** The pace of {@code maps} at {@code now}, or empty while no finished map reported its CPU. */
  static Optional<SharedCoresPace> of(Collection<MapRun> maps, long now) {
    MapOccupancy occupancy = new MapOccupancy(maps, now);
    List<Double> capacities = new ArrayList<>();
    List<Double> shares = new ArrayList<>();
    List<Long> cpus = new ArrayList<>();
    int running = 0;
    for (MapRun m : maps) {
      if (m.launched() > 0 && !m.isFinished()) {
        running++;
      }
      long wall = m.finished() - m.launched();
      if (m.launched() <= 0 || !m.isFinished() || m.cpuMillis() <= 0 || wall <= 0) {
        continue;
      }
      double share = (double) m.cpuMillis() / wall;
      shares.add(share);
      capacities.add(share * occupancy.average(m.launched(), m.finished()));
      cpus.add(m.cpuMillis());
    }
    if (cpus.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new SharedCoresPace(Medians.of(capacities), Math.max(1, Medians.of(shares)), Medians.of(cpus),
        occupancy, running));
  }

  /** When {@code m}, an unfinished map, should end: now plus its CPU still to use at the share it has now. */
  long expectedEnd(MapRun m, long now) {
    double shareNow = share(Math.max(1, runningNow));
    double used = m.launched() > 0 && now > m.launched()
        ? (now - m.launched()) * share(occupancy.average(m.launched(), now)) : 0;
    return now + (long) Math.ceil(Math.max(0, cpuMillis - used) / shareNow);
  }

  /** What the forecast rests on, for the application master's log. */
  @Override
  public String toString() {
    return String.format(Locale.ROOT, "the maps had %.2f cores together, a map needs %d ms of CPU", cores,
        cpuMillis);
  }

  private double share(double mapsRunning) {
    return Math.min(peakShare, cores / mapsRunning);
  }

  /**
   * How many of the job's launched maps ran at each moment (a running one until now), kept as the running
   * total of map-milliseconds at each launch or end, so that the average over any span is two lookups.
   */
  private static final class MapOccupancy {
    /** The moments a map was launched or ended, in order, and the map-milliseconds run before each. */
    private final long[] at;
    private final double[] mapMillisBefore;
    /** The maps running from each moment to the next. */
    private final int[] runningFrom;

    MapOccupancy(Collection<MapRun> maps, long now) {
      TreeMap<Long, Integer> changes = new TreeMap<>();
      for (MapRun m : maps) {
        long end = m.isFinished() ? m.finished() : now;
        if (m.launched() > 0 && end > m.launched()) {
          changes.merge(m.launched(), 1, Integer::sum);
          changes.merge(end, -1, Integer::sum);
        }
      }
      at = new long[changes.size()];
      mapMillisBefore = new double[changes.size()];
      runningFrom = new int[changes.size()];
      int i = 0;
      int running = 0;
      for (Map.Entry<Long, Integer> change : changes.entrySet()) {
        at[i] = change.getKey();
        mapMillisBefore[i] = i == 0 ? 0 : mapMillisBefore[i - 1] + (double) runningFrom[i - 1] * (at[i] - at[i - 1]);
        running += change.getValue();
        runningFrom[i] = running;
        i++;
      }
    }

    /** The number of maps that ran from {@code from} to {@code to}, on average over that time; at least one. */
    double average(long from, long to) {
      if (to <= from) {
        return 1;
      }
      return Math.max(1, (mapMillisUntil(to) - mapMillisUntil(from)) / (to - from));
    }

    private double mapMillisUntil(long t) {
      int i = Arrays.binarySearch(at, t);
      if (i < 0) {
        i = -i - 2; // the last moment before t
      }
      return i < 0 ? 0 : mapMillisBefore[i] + (double) runningFrom[i] * (t - at[i]);
    }
  }
}
