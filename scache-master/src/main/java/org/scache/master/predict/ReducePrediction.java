package org.scache.master.predict;

import static org.scache.common.Checks.require;

import java.util.Objects;
import java.util.Optional;

/**
 * The predicted input size of one reduce task and where most of that input lives: eq. 3's {@code
 * prob} and the host holding that largest share, the inputs of the schedulers.
 *
 * <p>{@code prob} is the largest share of the reduce's predicted bytes held by one known host, in
 * {@code [0, 1]}; {@code hostId} is that host, empty when no contribution has a known host (then
 * {@code prob} is 0 and the locality swap leaves the reduce alone).
 *
 * @param reduceId the reduce partition id, not negative
 * @param size the predicted input size in bytes, finite and not negative
 * @param prob the largest share of {@code size} held by one host
 * @param hostId the worker id of the host holding that share
 */
public record ReducePrediction(int reduceId, double size, double prob, Optional<String> hostId) {

  /** Validates the fields. */
  public ReducePrediction {
    require(reduceId >= 0, "reduce id must not be negative but was %d", reduceId);
    require(Double.isFinite(size) && size >= 0, "size of reduce %d must be finite and not negative but was %s",
        reduceId, size);
    require(prob >= 0 && prob <= 1, "prob of reduce %d must be in [0, 1] but was %s", reduceId, prob);
    Objects.requireNonNull(hostId, "hostId");
    hostId.ifPresent(h -> require(!h.isBlank(), "host id of reduce %d must not be blank", reduceId));
  }

  /** A prediction with no known location. */
  public static ReducePrediction withoutHost(int reduceId, double size) {
    return new ReducePrediction(reduceId, size, 0.0, Optional.empty());
  }

  /** A prediction whose largest share {@code prob} is held by {@code hostId}. */
  public static ReducePrediction onHost(int reduceId, double size, double prob, String hostId) {
    return new ReducePrediction(reduceId, size, prob, Optional.of(hostId));
  }
}
