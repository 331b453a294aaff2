package org.scache.common.protocol;

import java.util.Optional;

/**
 * Which reduce-size predictor a registered shuffle asks for: {@link #AUTO} lets the master apply
 * the paper's rule (regression for a hash partitioner, sampling otherwise); the others override it.
 */
public enum PredictorChoice {
  AUTO(0),
  REGRESSION(1),
  SAMPLING(2);

  private final int code;

  PredictorChoice(int code) {
    this.code = code;
  }

  /** The number sent on the wire. */
  public int code() {
    return code;
  }

  public static Optional<PredictorChoice> fromCode(int code) {
    for (PredictorChoice c : values()) {
      if (c.code == code) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }
}
