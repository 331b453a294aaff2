package org.scache.benchmarks.hadoop;

import java.util.List;

/**
 * A job's first wave of maps: those that started before any map had finished, so that they ran beside one
 * another from the start, and the mean of their times and of their own CPU ({@code CPU_MILLISECONDS}). Across
 * link rates it tells whether maps slow down where nothing of the shuffle has crossed a link yet: the first
 * wave's maps write their output while no earlier map's output is being sent.
 */
record FirstMapWave(int maps, double meanSeconds, double meanCpuSeconds) {
  static final FirstMapWave NONE = new FirstMapWave(0, Double.NaN, Double.NaN);

  /** One successful map attempt: its start and finish (epoch ms) and its CPU counter (ms). */
  record Map(long start, long finish, long cpuMillis) {}

  static FirstMapWave of(List<Map> maps) {
    long firstFinish = maps.stream().mapToLong(Map::finish).min().orElse(Long.MIN_VALUE);
    List<Map> wave = maps.stream().filter(m -> m.start() < firstFinish).toList();
    if (wave.isEmpty()) {
      return NONE;
    }
    return new FirstMapWave(wave.size(), wave.stream().mapToLong(m -> m.finish() - m.start()).average()
        .orElseThrow() / 1000.0, wave.stream().mapToLong(Map::cpuMillis).average().orElseThrow() / 1000.0);
  }
}
