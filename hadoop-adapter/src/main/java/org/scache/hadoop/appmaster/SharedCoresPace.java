package org.scache.hadoop.appmaster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
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
  private final List<MapRun> maps;

  private SharedCoresPace(double cores, double peakShare, long cpuMillis, List<MapRun> maps) {
    this.cores = cores;
    this.peakShare = peakShare;
    this.cpuMillis = cpuMillis;
    this.maps = maps;
  }

  /** The pace of {@code maps} at {@code now}, or empty while no finished map reported its CPU. */
  static Optional<SharedCoresPace> of(Collection<MapRun> maps, long now) {
    List<MapRun> launched = new ArrayList<>();
    for (MapRun m : maps) {
      if (m.launched() > 0) {
        launched.add(m);
      }
    }
    List<Double> capacities = new ArrayList<>();
    List<Double> shares = new ArrayList<>();
    List<Long> cpus = new ArrayList<>();
    for (MapRun m : launched) {
      long wall = m.finished() - m.launched();
      if (!m.isFinished() || m.cpuMillis() <= 0 || wall <= 0) {
        continue;
      }
      double share = (double) m.cpuMillis() / wall;
      shares.add(share);
      capacities.add(share * beside(launched, m.launched(), m.finished(), now));
      cpus.add(m.cpuMillis());
    }
    if (cpus.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new SharedCoresPace(median(capacities), Math.max(1, median(shares)), median(cpus), launched));
  }

  /** When {@code m}, an unfinished map, should end: now plus its CPU still to use at the share it has now. */
  long expectedEnd(MapRun m, long now) {
    int running = (int) maps.stream().filter(r -> !r.isFinished()).count();
    double shareNow = share(Math.max(1, running));
    double used = m.launched() > 0 && now > m.launched()
        ? (now - m.launched()) * share(beside(maps, m.launched(), now, now)) : 0;
    return now + (long) Math.ceil(Math.max(0, cpuMillis - used) / shareNow);
  }

  /** What the forecast rests on, for the application master's log. */
  @Override
  public String toString() {
    return String.format(java.util.Locale.ROOT, "the maps had %.2f cores together, a map needs %d ms of CPU",
        cores, cpuMillis);
  }

  private double share(double mapsRunning) {
    return Math.min(peakShare, cores / mapsRunning);
  }

  /** The number of {@code maps} that ran from {@code from} to {@code to}, on average over that time. */
  private static double beside(List<MapRun> maps, long from, long to, long now) {
    if (to <= from) {
      return 1;
    }
    long overlap = 0;
    for (MapRun r : maps) {
      long end = r.isFinished() ? r.finished() : now;
      overlap += Math.max(0, Math.min(to, end) - Math.max(from, r.launched()));
    }
    return Math.max(1, (double) overlap / (to - from));
  }

  private static <T extends Comparable<T>> T median(List<T> values) {
    values.sort(null);
    return values.get(values.size() / 2);
  }
}
