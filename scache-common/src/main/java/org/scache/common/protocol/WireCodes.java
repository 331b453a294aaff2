package org.scache.common.protocol;

import java.util.Optional;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.PredictorKind;

/** The numbers the wire uses for the domain's enumerations; codes are never reused. */
final class WireCodes {
  private static final int NO_PREDICTOR = 0;

  private WireCodes() {}

  static int partitioner(PartitionerKind kind) {
    return switch (kind) {
      case HASH -> 0;
      case RANGE -> 1;
      case CUSTOM -> 2;
    };
  }

  static Optional<PartitionerKind> partitioner(int code) {
    return switch (code) {
      case 0 -> Optional.of(PartitionerKind.HASH);
      case 1 -> Optional.of(PartitionerKind.RANGE);
      case 2 -> Optional.of(PartitionerKind.CUSTOM);
      default -> Optional.empty();
    };
  }

  /** The predictor a shuffle asks for, 0 when it follows the paper's rule. */
  static int predictor(Optional<PredictorKind> choice) {
    return choice.map(k -> switch (k) {
      case REGRESSION -> 1;
      case SAMPLING -> 2;
    }).orElse(NO_PREDICTOR);
  }

  /** The predictor choice a code names (empty inside: the paper's rule); empty outside for an unknown code. */
  static Optional<Optional<PredictorKind>> predictor(int code) {
    return switch (code) {
      case NO_PREDICTOR -> Optional.of(Optional.empty());
      case 1 -> Optional.of(Optional.of(PredictorKind.REGRESSION));
      case 2 -> Optional.of(Optional.of(PredictorKind.SAMPLING));
      default -> Optional.empty();
    };
  }
}
