package org.scache.common.shuffle;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a framework declares about a shuffle when it registers it: its maps and reduces, its
 * partitioner, when it was submitted, and what helps predict and place it: every map's input size
 * (empty when unknown), the reduce stage it feeds ({@link #NO_STAGE} when it is the stage's only
 * shuffle), a predictor that overrides the paper's rule (empty to follow it), and how many of its
 * reduces a worker's node runs at once ({@link #MASTER_SLOTS}: the master's configured number), and
 * whether one reduce task may read a range of consecutive reduces ({@code readsRanges}: Spark's adaptive
 * execution coalesces small partitions), so that the master places consecutive reduces together, and
 * whether the framework starts none of its reduces before its last map has ended ({@code reducesAfterMaps}:
 * Spark submits a reduce stage when its map stage is done), so that the master may still move reduces then,
 * and how many of its maps one task of the framework writes, one after the other ({@code mapsPerTask}: a Spark
 * map task puts its output in segments as it goes, each segment a map here), so that the observation threshold
 * counts tasks' worth of maps.
 */
public record ShuffleSpec(String appId, int shuffleId, int numMaps, int numReduces, PartitionerKind partitioner,
    long submissionTimeMillis, List<Long> mapInputBytes, int stageId, Optional<PredictorKind> predictor,
    int slotsPerWorker, boolean readsRanges, boolean reducesAfterMaps, int mapsPerTask) {
  /** The stage id of a shuffle that shares its reduce stage with no other shuffle. */
  public static final int NO_STAGE = -1;
  /** The slots per worker of a shuffle whose framework does not say: the master's configured number. */
  public static final int MASTER_SLOTS = 0;

  public ShuffleSpec {
    Objects.requireNonNull(appId, "appId");
    Objects.requireNonNull(partitioner, "partitioner");
    Objects.requireNonNull(predictor, "predictor");
    mapInputBytes = List.copyOf(mapInputBytes);
    if (slotsPerWorker < 0) {
      throw new IllegalArgumentException("slots per worker must not be negative: " + slotsPerWorker);
    }
    if (mapsPerTask < 1 || numMaps % mapsPerTask != 0) {
      throw new IllegalArgumentException("maps per task must be at least 1 and divide the " + numMaps + " maps: "
          + mapsPerTask);
    }
  }

  /** A shuffle each of whose maps is written by a task of its own. */
  public ShuffleSpec(String appId, int shuffleId, int numMaps, int numReduces, PartitionerKind partitioner,
      long submissionTimeMillis, List<Long> mapInputBytes, int stageId, Optional<PredictorKind> predictor,
      int slotsPerWorker, boolean readsRanges, boolean reducesAfterMaps) {
    this(appId, shuffleId, numMaps, numReduces, partitioner, submissionTimeMillis, mapInputBytes, stageId, predictor,
        slotsPerWorker, readsRanges, reducesAfterMaps, 1);
  }

  /** A shuffle whose reduces may start before its last map ends. */
  public ShuffleSpec(String appId, int shuffleId, int numMaps, int numReduces, PartitionerKind partitioner,
      long submissionTimeMillis, List<Long> mapInputBytes, int stageId, Optional<PredictorKind> predictor,
      int slotsPerWorker, boolean readsRanges) {
    this(appId, shuffleId, numMaps, numReduces, partitioner, submissionTimeMillis, mapInputBytes, stageId, predictor,
        slotsPerWorker, readsRanges, false);
  }

  /** A shuffle each of whose reduces is read by a task of its own. */
  public ShuffleSpec(String appId, int shuffleId, int numMaps, int numReduces, PartitionerKind partitioner,
      long submissionTimeMillis, List<Long> mapInputBytes, int stageId, Optional<PredictorKind> predictor,
      int slotsPerWorker) {
    this(appId, shuffleId, numMaps, numReduces, partitioner, submissionTimeMillis, mapInputBytes, stageId, predictor,
        slotsPerWorker, false);
  }

  /** A shuffle whose rounds the master derives from its own slots per worker. */
  public ShuffleSpec(String appId, int shuffleId, int numMaps, int numReduces, PartitionerKind partitioner,
      long submissionTimeMillis, List<Long> mapInputBytes, int stageId, Optional<PredictorKind> predictor) {
    this(appId, shuffleId, numMaps, numReduces, partitioner, submissionTimeMillis, mapInputBytes, stageId, predictor,
        MASTER_SLOTS);
  }

  /** A shuffle without input sizes, stage or predictor choice. */
  public ShuffleSpec(String appId, int shuffleId, int numMaps, int numReduces, PartitionerKind partitioner,
      long submissionTimeMillis) {
    this(appId, shuffleId, numMaps, numReduces, partitioner, submissionTimeMillis, List.of(), NO_STAGE,
        Optional.empty());
  }

  /** The tasks that write the shuffle's maps ({@code mapsPerTask} maps each). */
  public int numTasks() {
    return numMaps / mapsPerTask;
  }

  /** The predictor this shuffle uses: its override, else the paper's rule for its partitioner. */
  public PredictorKind chosenPredictor() {
    return PredictorKind.choose(partitioner, predictor);
  }
}
