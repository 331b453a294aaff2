package org.scache.master.predict;

import static org.scache.common.Checks.require;

import java.util.Arrays;
import java.util.Objects;

/**
 * The block sizes one finished map task produced for every reduce, and the host (worker) that holds
 * them; the observations eq. 1 is fitted on. Immutable.
 */
public final class ObservedMapOutput {
  private final int mapId;
  private final String host;
  private final long[] blockBytes;

  /**
   * An observation of one finished map.
   *
   * @param mapId the map task index
   * @param host the worker id holding the map's output
   * @param blockBytes bytes produced for each reduce id; copied
   */
  public ObservedMapOutput(int mapId, String host, long[] blockBytes) {
    require(mapId >= 0, "map id must not be negative but was %d", mapId);
    Objects.requireNonNull(host, "host");
    require(!host.isBlank(), "host of map %d must not be blank", mapId);
    Objects.requireNonNull(blockBytes, "blockBytes");
    for (int reduce = 0; reduce < blockBytes.length; reduce++) {
      require(
          blockBytes[reduce] >= 0,
          "block of map %d for reduce %d must not be negative but was %d",
          mapId,
          reduce,
          blockBytes[reduce]);
    }
    this.mapId = mapId;
    this.host = host;
    this.blockBytes = blockBytes.clone();
  }

  /** The map task index. */
  public int mapId() {
    return mapId;
  }

  /** The worker id holding this map's output. */
  public String host() {
    return host;
  }

  /** The number of reduces this output was partitioned into. */
  public int reduceCount() {
    return blockBytes.length;
  }

  /** Bytes this map produced for {@code reduceId}. */
  public long blockBytes(int reduceId) {
    require(
        reduceId >= 0 && reduceId < blockBytes.length,
        "reduce id %d is outside [0, %d)",
        reduceId,
        blockBytes.length);
    return blockBytes[reduceId];
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ObservedMapOutput that
        && mapId == that.mapId
        && host.equals(that.host)
        && Arrays.equals(blockBytes, that.blockBytes);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * mapId + host.hashCode()) + Arrays.hashCode(blockBytes);
  }

  @Override
  public String toString() {
    return "ObservedMapOutput[map=" + mapId + ", host=" + host + ", reduces=" + blockBytes.length + "]";
  }
}
