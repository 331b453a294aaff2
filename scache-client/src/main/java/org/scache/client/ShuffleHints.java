package org.scache.client;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.scache.common.shuffle.PredictorKind;
import org.scache.common.shuffle.ShuffleSpec;

/**
 * What a framework knows of a shuffle that helps the master predict and place its reduces: the
 * input size of every map (empty when unknown), the reduce stage it feeds when that stage reads
 * several shuffles, and a predictor overriding the partitioner's rule (empty to follow it).
 */
public record ShuffleHints(List<Long> mapInputBytes, int stageId, Optional<PredictorKind> predictor) {
  /** No input sizes, no shared stage, the paper's predictor rule. */
  public static final ShuffleHints NONE = new ShuffleHints(List.of(), ShuffleSpec.NO_STAGE, Optional.empty());

  public ShuffleHints {
    mapInputBytes = List.copyOf(mapInputBytes);
    Objects.requireNonNull(predictor, "predictor");
    if (stageId < ShuffleSpec.NO_STAGE) {
      throw new IllegalArgumentException("stage id must be -1 (none) or not negative: " + stageId);
    }
  }

  /** Hints with the input size of every map, in map id order. */
  public static ShuffleHints inputSizes(List<Long> mapInputBytes) {
    return new ShuffleHints(mapInputBytes, ShuffleSpec.NO_STAGE, Optional.empty());
  }

  /** These hints, for a shuffle feeding reduce stage {@code stageId} with other shuffles. */
  public ShuffleHints inStage(int stageId) {
    return new ShuffleHints(mapInputBytes, stageId, predictor);
  }

  /** These hints with the predictor forced to {@code kind}. */
  public ShuffleHints withPredictor(PredictorKind kind) {
    return new ShuffleHints(mapInputBytes, stageId, Optional.of(kind));
  }
}
