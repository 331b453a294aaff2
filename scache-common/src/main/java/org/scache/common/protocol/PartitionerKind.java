package org.scache.common.protocol;

import java.util.Optional;

/** How a shuffle's records are assigned to reduce partitions; picks the size predictor (paper III-B2). */
public enum PartitionerKind {
  HASH(0),
  RANGE(1),
  CUSTOM(2);

  private final int code;

  PartitionerKind(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  public static Optional<PartitionerKind> fromCode(int code) {
    for (PartitionerKind k : values()) {
      if (k.code == code) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }
}
