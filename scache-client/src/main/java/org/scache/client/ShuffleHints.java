package org.scache.client;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.scache.common.shuffle.PredictorKind;
import org.scache.common.shuffle.ShuffleSpec;

/**
 * What a framework knows of a shuffle that helps the master predict and place its reduces: the
 * input size of every map (empty when unknown), the reduce stage it feeds when that stage reads
 * several shuffles, a predictor overriding the partitioner's rule (empty to follow it), and how many
 * reduces the framework runs at once on a worker's node ({@link ShuffleSpec#MASTER_SLOTS}: the master's
 * configured number), from which the master numbers the rounds of the placement, and whether one
 * reduce task may read a range of consecutive reduces ({@link ShuffleSpec#readsRanges()}), and whether the
 * framework starts its reduces only once every map has ended ({@link ShuffleSpec#reducesAfterMaps()}), and how
 * many of the shuffle's maps one task of the framework writes, one after the other
 * ({@link ShuffleSpec#mapsPerTask()}).
 */
public record ShuffleHints(List<Long> mapInputBytes, int stageId, Optional<PredictorKind> predictor,
    int slotsPerWorker, boolean readsRanges, boolean reducesAfterMaps, int mapsPerTask) {
  /** No input sizes, no shared stage, the paper's predictor rule, the master's slots. */
  public static final ShuffleHints NONE = new ShuffleHints(List.of(), ShuffleSpec.NO_STAGE, Optional.empty(),
      ShuffleSpec.MASTER_SLOTS);

  public ShuffleHints(List<Long> mapInputBytes, int stageId, Optional<PredictorKind> predictor, int slotsPerWorker) {
    this(mapInputBytes, stageId, predictor, slotsPerWorker, false, false, 1);
  }

  public ShuffleHints {
    mapInputBytes = List.copyOf(mapInputBytes);
    Objects.requireNonNull(predictor, "predictor");
    if (stageId < ShuffleSpec.NO_STAGE) {
      throw new IllegalArgumentException("stage id must be -1 (none) or not negative: " + stageId);
    }
    if (slotsPerWorker < 0) {
      throw new IllegalArgumentException("slots per worker must not be negative: " + slotsPerWorker);
    }
    if (mapsPerTask < 1) {
      throw new IllegalArgumentException("maps per task must be at least 1: " + mapsPerTask);
    }
  }

  /** Hints with the input size of every map, in map id order. */
  public static ShuffleHints inputSizes(List<Long> mapInputBytes) {
    return new ShuffleHints(mapInputBytes, ShuffleSpec.NO_STAGE, Optional.empty(), ShuffleSpec.MASTER_SLOTS);
  }

  /** These hints, for a shuffle feeding reduce stage {@code stageId} with other shuffles. */
  public ShuffleHints inStage(int stageId) {
    return new ShuffleHints(mapInputBytes, stageId, predictor, slotsPerWorker, readsRanges, reducesAfterMaps,
        mapsPerTask);
  }

  /** These hints with the predictor forced to {@code kind}. */
  public ShuffleHints withPredictor(PredictorKind kind) {
    return new ShuffleHints(mapInputBytes, stageId, Optional.of(kind), slotsPerWorker, readsRanges, reducesAfterMaps,
        mapsPerTask);
  }

  /** These hints, for a framework that runs {@code slots} reduces at once on a worker's node. */
  public ShuffleHints withSlotsPerWorker(int slots) {
    return new ShuffleHints(mapInputBytes, stageId, predictor, slots, readsRanges, reducesAfterMaps, mapsPerTask);
  }

  /**
   * These hints, for a shuffle one of whose reduce tasks may read a range of consecutive reduces: the
   * master then places consecutive reduces on the same worker.
   */
  public ShuffleHints readingRanges() {
    return new ShuffleHints(mapInputBytes, stageId, predictor, slotsPerWorker, true, reducesAfterMaps, mapsPerTask);
  }

  /**
   * These hints, for a framework that starts none of the shuffle's reduces before its last map has ended: the
   * master may then move reduces once the maps are done, to even out what each node's link still has to carry.
   */
  public ShuffleHints startingReducesAfterMaps() {
    return new ShuffleHints(mapInputBytes, stageId, predictor, slotsPerWorker, readsRanges, true, mapsPerTask);
  }

  /**
   * These hints, for a shuffle each of whose framework tasks writes {@code maps} of its maps one after the other
   * (the shuffle's map count is the tasks times {@code maps}): the observation threshold counts tasks.
   */
  public ShuffleHints withMapsPerTask(int maps) {
    return new ShuffleHints(mapInputBytes, stageId, predictor, slotsPerWorker, readsRanges, reducesAfterMaps, maps);
  }
}
