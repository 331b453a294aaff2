package org.scache.common.shuffle;

import java.util.Objects;
import java.util.Optional;

/**
 * Which reduce-size predictor a shuffle uses: linear regression on observed map outputs (eq. 1) or
 * weighted reservoir sampling of the map input (eq. 2). A shuffle names one to override the paper's
 * rule, or none to follow it.
 */
public enum PredictorKind {
  /** Eq. 1, fitted on the map outputs observed so far. */
  REGRESSION,
  /** Eq. 2, from samples of every map's input reported before or during the map stage. */
  SAMPLING;

  /**
   * The paper's rule (Section III-B2): regression for a hash partitioner, sampling for a range
   * partitioner or any custom non-hash partitioner, whose outputs a few observed maps misrepresent.
   */
  public static PredictorKind forPartitioner(PartitionerKind partitioner) {
    Objects.requireNonNull(partitioner, "partitioner");
    return switch (partitioner) {
      case HASH -> REGRESSION;
      case RANGE, CUSTOM -> SAMPLING;
    };
  }

  /** {@code override} when present (a configured choice), otherwise the paper's rule. */
  public static PredictorKind choose(PartitionerKind partitioner, Optional<PredictorKind> override) {
    Objects.requireNonNull(override, "override");
    PredictorKind byRule = forPartitioner(partitioner);
    return override.orElse(byRule);
  }
}
