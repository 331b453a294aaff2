package org.scache.dist;

/** Bytes moved in a measured time, and how many operations moved them. */
public record Throughput(long bytes, long operations, long nanos) {
  public static final Throughput NONE = new Throughput(0, 0, 0);

  /** Decimal gigabytes (10^9 bytes) per second. */
  public double gbPerSecond() {
    return nanos == 0 ? 0 : bytes / (double) nanos;
  }

  public double operationsPerSecond() {
    return nanos == 0 ? 0 : operations * 1e9 / nanos;
  }

  public Throughput plus(Throughput other) {
    return new Throughput(bytes + other.bytes, operations + other.operations, nanos + other.nanos);
  }
}
