package org.scache.benchmarks.harness;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * How fast this machine is right now, from a fixed piece of work: sorting the same 2 million random
 * longs, five times, the fastest time counted. A benchmark prints it before it starts, so that runs on
 * different days can be told apart from a machine that became slower: inside a virtual machine whose
 * host is busy, a job needs more CPU seconds for the same work, and nothing else shows it (the guest
 * does not always see the stolen time).
 */
public final class MachineSpeed {
  private static final int VALUES = 2_000_000;
  private static final int ROUNDS = 5;

  /** The fastest round's wall and thread CPU milliseconds. */
  public record Measured(double wallMs, double cpuMs) {
    public String describe() {
      return String.format(Locale.ROOT, "machine speed: sorting 2 million longs took %.0f ms (%.0f ms of CPU; the "
          + "fastest of %d rounds, lower is faster)", wallMs, cpuMs, ROUNDS);
    }
  }

  private MachineSpeed() {}

  public static Measured measure() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long[] values = new SplittableRandom(42).longs(VALUES).toArray();
    double bestWall = Double.MAX_VALUE;
    double bestCpu = Double.MAX_VALUE;
    long sink = 0;
    for (int round = 0; round < ROUNDS; round++) {
      long[] copy = values.clone();
      long cpu = threads.getCurrentThreadCpuTime();
      long wall = System.nanoTime();
      Arrays.sort(copy);
      bestWall = Math.min(bestWall, (System.nanoTime() - wall) / 1e6);
      bestCpu = Math.min(bestCpu, (threads.getCurrentThreadCpuTime() - cpu) / 1e6);
      sink += copy[VALUES / 2];
    }
    if (sink == 42) {
      Thread.onSpinWait(); // keeps the sorts from being optimised away
    }
    return new Measured(bestWall, bestCpu);
  }

  public static void main(String[] args) {
    System.out.println(measure().describe());
  }
}
