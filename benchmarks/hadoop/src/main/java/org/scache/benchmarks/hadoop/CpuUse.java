package org.scache.benchmarks.hadoop;

/**
 * The CPU one job used: its map and reduce tasks' own ({@code CPU_MILLISECONDS} of their counters),
 * and the whole machine's while the job ran, which also counts the daemons, the SCache workers, the
 * application master and the client. Milliseconds; the machine's is -1 when unknown.
 */
record CpuUse(long mapMillis, long reduceMillis, long machineMillis) {
  /** The tasks' CPU, the machine's not (yet) known. */
  static CpuUse ofTasks(long mapMillis, long reduceMillis) {
    return new CpuUse(mapMillis, reduceMillis, -1);
  }

  CpuUse withMachine(long millis) {
    return new CpuUse(mapMillis, reduceMillis, millis);
  }

  double mapSeconds() {
    return mapMillis / 1000.0;
  }

  double reduceSeconds() {
    return reduceMillis / 1000.0;
  }

  double machineSeconds() {
    return machineMillis < 0 ? Double.NaN : machineMillis / 1000.0;
  }

  /** The machine's CPU the tasks did not use: daemons, workers, the application master, the client. */
  double outsideTasksSeconds() {
    return machineMillis < 0 ? Double.NaN : (machineMillis - mapMillis - reduceMillis) / 1000.0;
  }
}
