package org.scache.common;

import java.util.Objects;

/** Identifies one shuffle of one application. */
public record ShuffleKey(String appId, int shuffleId) {

  public ShuffleKey {
    Objects.requireNonNull(appId, "appId");
    Checks.require(!appId.isEmpty(), "application id must not be empty");
    Checks.require(shuffleId >= 0, "shuffle id must not be negative: %s", shuffleId);
  }

  @Override
  public String toString() {
    return appId + "/shuffle_" + shuffleId;
  }
}
