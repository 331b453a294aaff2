package org.scache.master.schedule;

import static org.scache.common.Checks.require;

import java.util.Objects;

/**
 * What the earlier shuffles of a reduce stage left for one reduce: the bytes accumulated so far and
 * the host they were placed on ({@code shuffles[rid]} of Algorithm 2).
 *
 * @param size the accumulated predicted bytes of the earlier shuffles
 * @param assignedHost the host holding them
 */
public record AccumulatedReduce(double size, String assignedHost) {

  /** Validates the fields. */
  public AccumulatedReduce {
    require(Double.isFinite(size) && size >= 0, "accumulated size must be finite and not negative but was %s", size);
    Objects.requireNonNull(assignedHost, "assignedHost");
  }
}
