package org.scache.master.schedule;

import java.util.Arrays;

/** Orderings of reduce indices shared by the schedulers. */
final class SchedulerOrders {
  private SchedulerOrders() {}

  /** Indices into {@code ids} sorted by reduce id ascending (ids are not negative). */
  static int[] byReduceId(int[] ids) {
    long[] keys = new long[ids.length];
    for (int i = 0; i < ids.length; i++) {
      keys[i] = ((long) ids[i] << 32) | i;
    }
    Arrays.sort(keys);
    int[] order = new int[ids.length];
    for (int k = 0; k < order.length; k++) {
      order[k] = (int) keys[k];
    }
    return order;
  }
}
