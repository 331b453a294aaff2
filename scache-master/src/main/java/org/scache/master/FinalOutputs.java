package org.scache.master;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import org.scache.master.predict.ObservedOutputs;

/**
 * The final-attempt outputs of a shuffle's finished, not lost maps, read in place from its packed blocks: what
 * regression (eq. 1), the balancing at the maps' end and the status page compute from. It holds one entry per map
 * and per reduce, never a map × reduce matrix, so a placement of a wide shuffle takes little heap beyond the blocks'
 * own state. Valid while its shuffle's guard is held and the shuffle unchanged.
 */
final class FinalOutputs implements ObservedOutputs {
  private static final int NONE = -1;

  private final ReduceBlocks[] reduces;
  /** The final attempt of each map id, NONE for a map not finished or lost. */
  private final int[] attemptOf;
  /** The worker holding each map's output, null for a map that stored nothing (or is not counted). */
  private final String[] holderOf;
  private final int[] observed;

  FinalOutputs(ReduceBlocks[] reduces, int[] attemptOf) {
    this.reduces = reduces;
    this.attemptOf = attemptOf;
    this.holderOf = new String[attemptOf.length];
    int count = 0;
    for (int map = 0; map < attemptOf.length; map++) {
      if (attemptOf[map] == NONE) {
        continue;
      }
      // every block of a map attempt is put on one worker: its first block found names it
      for (int r = 0; r < reduces.length && holderOf[map] == null; r++) {
        if (reduces[r] != null) {
          holderOf[map] = reduces[r].holderOf(map, attemptOf[map]);
        }
      }
      if (holderOf[map] != null) {
        count++;
      }
    }
    observed = new int[count];
    for (int map = 0, k = 0; map < holderOf.length; map++) {
      if (holderOf[map] != null) {
        observed[k++] = map;
      }
    }
  }

  /** The finished maps that stored a block, ascending. */
  @Override
  public int[] maps() {
    return observed.clone();
  }

  @Override
  public String host(int map) {
    return holderOf[map];
  }

  /** The worker holding a finished map's output, if it stored any. */
  Optional<String> holder(int map) {
    return map >= 0 && map < holderOf.length ? Optional.ofNullable(holderOf[map]) : Optional.empty();
  }

  @Override
  public long blockBytes(int map, int reduce) {
    if (map < 0 || map >= attemptOf.length || attemptOf[map] == NONE || reduces[reduce] == null) {
      return 0;
    }
    return Math.max(0, reduces[reduce].sizeOf(map, attemptOf[map]));
  }

  /** Each reduce's bytes over the finished maps. */
  long[] bytesByReduce() {
    long[] total = new long[reduces.length];
    for (int r = 0; r < reduces.length; r++) {
      for (int map : observed) {
        total[r] += blockBytes(map, r);
      }
    }
    return total;
  }

  /** Each reduce's bytes held by each worker of {@code index} (a worker not in it is left out). */
  long[][] bytesByReduceAndWorker(Map<String, Integer> index) {
    int[] workerOf = new int[attemptOf.length];
    Arrays.fill(workerOf, NONE);
    for (int map : observed) {
      workerOf[map] = index.getOrDefault(holderOf[map], NONE);
    }
    long[][] held = new long[reduces.length][index.size()];
    for (int r = 0; r < reduces.length; r++) {
      for (int map : observed) {
        if (workerOf[map] != NONE) {
          held[r][workerOf[map]] += blockBytes(map, r);
        }
      }
    }
    return held;
  }
}
