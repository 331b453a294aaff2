package org.scache.master.schedule;

import java.util.List;

/**
 * The full outcome of Algorithm 1: the LPT placement before the locality swap, the final placement,
 * and the swaps that lead from one to the other, in the order they were made.
 *
 * @param beforeSwap the placement right after the longest-processing-time pass
 * @param result the placement after the heuristic locality swap
 * @param swaps the swaps made
 * @param maxLoadBeforeSwap the largest host load after LPT, the {@code max} of the pseudocode
 */
public record MinHeapSchedule(
    HostPlacement beforeSwap, HostPlacement result, List<LocalitySwap> swaps, double maxLoadBeforeSwap) {

  /** Copies the swap list. */
  public MinHeapSchedule {
    swaps = List.copyOf(swaps);
  }
}
