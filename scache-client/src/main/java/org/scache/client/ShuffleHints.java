package org.scache.client;

import java.util.List;
import java.util.Objects;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.PredictorChoice;

/**
 * What a framework knows of a shuffle that helps the master predict and place its reduces: the
 * input size of every map (empty when unknown), the reduce stage it feeds when that stage reads
 * several shuffles, and a predictor choice overriding the partitioner's rule.
 */
public record ShuffleHints(List<Long> mapInputBytes, int stageId, PredictorChoice predictor) {
  /** No input sizes, no shared stage, the paper's predictor rule. */
  public static final ShuffleHints NONE = new ShuffleHints(List.of(), Message.RegisterShuffle.NO_STAGE,
      PredictorChoice.AUTO);

  public ShuffleHints {
    mapInputBytes = List.copyOf(mapInputBytes);
    Objects.requireNonNull(predictor, "predictor");
    if (stageId < Message.RegisterShuffle.NO_STAGE) {
      throw new IllegalArgumentException("stage id must be -1 (none) or not negative: " + stageId);
    }
  }

  /** Hints with the input size of every map, in map id order. */
  public static ShuffleHints inputSizes(List<Long> mapInputBytes) {
    return new ShuffleHints(mapInputBytes, Message.RegisterShuffle.NO_STAGE, PredictorChoice.AUTO);
  }

  /** These hints, for a shuffle feeding reduce stage {@code stageId} with other shuffles. */
  public ShuffleHints inStage(int stageId) {
    return new ShuffleHints(mapInputBytes, stageId, predictor);
  }

  /** These hints with the predictor forced to {@code choice}. */
  public ShuffleHints withPredictor(PredictorChoice choice) {
    return new ShuffleHints(mapInputBytes, stageId, choice);
  }
}
