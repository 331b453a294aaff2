package org.scache.benchmarks.hadoop;

import java.util.List;
import org.scache.benchmarks.harness.MachineSpeed;
import org.scache.benchmarks.harness.Stats;
import org.scache.hadoop.frq.Shuffle;

/** One repetition at one size: the same input sorted on Hadoop's shuffle and through SCache. */
record RunPair(long size, int repetition, boolean hadoopFirst, TerasortRunner.SortRun hadoop,
    TerasortRunner.SortRun scache) {

  /**
   * How far apart the machine's speed was over the pair: the slowest of the four {@link MachineSpeed} readings
   * (before and after each job) over the fastest. Above {@link #STEADY_MACHINE} the machine changed under the
   * pair, and its ratio tells of the machine as much as of the shuffles.
   */
  double machineSpeedSpread() {
    List<Double> readings = List.of(hadoop.speedBefore().wallMs(), hadoop.speedAfter().wallMs(),
        scache.speedBefore().wallMs(), scache.speedAfter().wallMs());
    return readings.stream().mapToDouble(Double::doubleValue).max().orElseThrow()
        / readings.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
  }

  /** A pair whose machine's speed readings differ by more than this is marked (two runs differ by 10 % anyway). */
  static final double STEADY_MACHINE = 1.15;

  /** The figures of the job on {@code shuffle}. */
  JobFigures job(Shuffle shuffle) {
    return (shuffle == Shuffle.HADOOP ? hadoop : scache).job();
  }

  double jobRatio() {
    return Stats.ratio(scache.job().jobSeconds(), hadoop.job().jobSeconds());
  }

  double reduceStageRatio() {
    return Stats.ratio(scache.job().reduceStageSeconds(), hadoop.job().reduceStageSeconds());
  }

  /** The ratio of the median per-reducer shuffle waits. */
  double shuffleWaitRatio() {
    return Stats.ratio(scache.job().medianShuffleWaitSeconds(), hadoop.job().medianShuffleWaitSeconds());
  }

  /** The ratio of the median per-reducer shuffles from their beginning in the task (NaN without task logs). */
  double shuffleItselfRatio() {
    return Stats.ratio(scache.job().medianShuffleItselfSeconds(), hadoop.job().medianShuffleItselfSeconds());
  }

  /** The ratio of the median per-reducer shuffle times after the reducer's JVM was up (NaN without task logs). */
  double shuffleAfterJvmRatio() {
    return Stats.ratio(scache.job().medianShuffleAfterJvmSeconds(), hadoop.job().medianShuffleAfterJvmSeconds());
  }
}
