package org.scache.benchmarks.hadoop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time this machine's cores have been busy (user, nice, system, interrupts, steal), from
 * {@code /proc/stat}. Every process of a cluster on this machine counts: daemons, workers, tasks
 * and the client.
 */
final class MachineCpu {
  /** The kernel's clock ticks per second for {@code /proc/stat} (USER_HZ), 100 on Linux. */
  private static final long TICKS_PER_SECOND = 100;

  private MachineCpu() {}

  /** Busy CPU milliseconds since boot, summed over the cores; -1 when {@code /proc/stat} cannot be read. */
  static long busyMillis() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
        if (line.startsWith("cpu ")) {
          return busyMillis(line);
        }
      }
      return -1;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Busy milliseconds of a {@code cpu} line: every field but idle and iowait (guest time is in user). */
  static long busyMillis(String cpuLine) {
    String[] f = cpuLine.trim().split("\\s+");
    long busy = 0;
    // fields: user nice system idle iowait irq softirq steal [guest guest_nice]
    for (int i = 1; i <= Math.min(8, f.length - 1); i++) {
      if (i != 4 && i != 5) {
        busy += Long.parseLong(f[i]);
      }
    }
    return busy * 1000 / TICKS_PER_SECOND;
  }
}
