package org.scache.hadoop.bench;

import org.scache.bench.Stats;

/** One repetition at one size: the same input sorted on Hadoop's shuffle and through SCache. */
record RunPair(long size, int repetition, boolean hadoopFirst, TerasortRunner.SortRun hadoop,
    TerasortRunner.SortRun scache) {

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
