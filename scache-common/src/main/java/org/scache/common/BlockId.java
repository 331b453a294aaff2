package org.scache.common;

import java.util.Objects;

/**
 * Names one shuffle block: the output of one map attempt for one reduce partition of a shuffle
 * of an application. Blocks are immutable once stored.
 */
public record BlockId(String appId, int shuffleId, int mapId, int attempt, int reduceId) {

  public BlockId {
    Objects.requireNonNull(appId, "appId");
    Checks.require(!appId.isEmpty(), "application id must not be empty");
    Checks.requireNonNegative(shuffleId, "shuffle id");
    Checks.requireNonNegative(mapId, "map id");
    Checks.requireNonNegative(attempt, "map attempt");
    Checks.requireNonNegative(reduceId, "reduce id");
  }

  /** The shuffle this block belongs to. */
  public ShuffleKey shuffle() {
    return new ShuffleKey(appId, shuffleId);
  }

  @Override
  public String toString() {
    return appId + "/shuffle_" + shuffleId + "/map_" + mapId + "." + attempt + "/reduce_" + reduceId;
  }
}
