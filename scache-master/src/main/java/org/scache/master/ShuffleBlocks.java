package org.scache.master;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import org.scache.master.predict.HeldBytes;
import org.scache.master.predict.RegressionSums;

/**
 * What the master keeps of a shuffle's blocks, without a size per block once their map ended: a running map
 * attempt's blocks exactly ({@link AttemptBlocks}, until the attempt ends), and of each finished map its final
 * attempt, the worker holding its blocks and one bit per reduce it put a block of. Their sizes go into sums as the map
 * ends: the bytes of each reduce each holder holds ({@link HeldBytes}, eq. 3's shares and the balancing at the maps'
 * end) and eq. 1's sums ({@link RegressionSums}); a block's own size is then known again only to its holder, the
 * master sharing a holder's bytes of a reduce evenly among its blocks there. A final block held by another worker
 * than its map's others (a put redirected there) lies apart with its size. So a finished shuffle costs the master a
 * bit a block, four bytes a reduce per holder and some per map, not the map × reduce sizes. Not thread-safe: guarded
 * by its {@link ShuffleState}'s guard.
 */
final class ShuffleBlocks {
  private static final int NONE = -1;
  /** In {@link #counted}: the map's blocks were summed, and it was lost since; blocks re-reported are not again. */
  private static final int SUMMED = -2;


  private final HeldBytes held = new HeldBytes();
  /** Eq. 1's sums over the maps counted, null until the shuffle's map inputs are known. */
  private RegressionSums sums;
  private long[] inputs = new long[0];
  /** The attempts of each map not folded in: running, or other than the final one. */
  private final Map<Integer, Map<Integer, AttemptBlocks>> running = new HashMap<>();
  private int[] finalAttempt = new int[0];
  /** The holder of each finished map's blocks (those in its bits), NONE when it has none. */
  private int[] mainHolder = new int[0];
  /** Per finished map, a bit for each reduce its final attempt's main holder has a block of. */
  private long[][] present = new long[0][];
  /** The attempt whose blocks each map added to eq. 1's sums, NONE for a map not counted. */
  private int[] counted = new int[0];
  private Map<Long, HeldBlock> apart = Map.of();
  private final TreeSet<Integer> lost = new TreeSet<>();
  private int finished;
  /** The shuffle's reduces once known (0 before), so that a map's arrays are allocated once. */
  private int reduces;
  private int reduceWords;

  /** The shuffle is registered: its reduces, and its maps' input sizes, eq. 1's x, counted from here on. */
  void shapeKnown(long[] mapInputBytes, int reduces) {
    this.reduces = reduces;
    reduceWords = (reduces + 63) >>> 6;
    held.reducesKnown(reduces);
    if (sums == null) {
      inputs = mapInputBytes.clone();
      sums = new RegressionSums();
      ensure(mapInputBytes.length - 1);
    }
  }

  void report(int map, int attempt, int reduce, long size, String holderName) {
    int holder = held.indexOf(holderName);
    ensure(map);
    if (finalAttempt[map] == attempt) {
      lost.remove(map);
      addFinal(map, reduce, size, holder);
      return;
    }
    running.computeIfAbsent(map, m -> new HashMap<>(2)).computeIfAbsent(attempt, a -> new AttemptBlocks(reduces))
        .put(reduce, size, holder);
  }

  /**
   * The map ended with {@code attempt}: its reported blocks of that attempt are folded into the sums, those of its
   * other attempts forgotten (their workers drop them). Returns the attempt's blocks as reported, exact, or null if
   * none was reported before its end.
   */
  AttemptBlocks mapFinished(int map, int attempt) {
    ensure(map);
    int before = finalAttempt[map];
    if (before == NONE) {
      finished++;
    } else if (before != attempt) {
      unfold(map);
    }
    finalAttempt[map] = attempt;
    lost.remove(map);
    Map<Integer, AttemptBlocks> attempts = running.remove(map);
    AttemptBlocks blocks = attempts == null ? null : attempts.get(attempt);
    if (sums != null && counted[map] == NONE && map < inputs.length) {
      sums.addMap(inputs[map]);
      counted[map] = attempt;
    }
    if (blocks != null) {
      int span = blocks.span();
      for (int r = 0; r < span; r++) {
        if (blocks.has(r)) {
          addFinal(map, r, blocks.size(r), blocks.holder(r));
        }
      }
    }
    return blocks;
  }

  private void addFinal(int map, int reduce, long size, int holder) {
    if (mainHolder[map] == NONE) {
      mainHolder[map] = holder;
    }
    boolean known = false;
    if (has(map, reduce)) {
      if (mainHolder[map] == holder) {
        return; // the same block reported again
      }
      known = true;
      held.remove(mainHolder[map], reduce, meanOfMain(mainHolder[map], reduce));
      clear(map, reduce);
    }
    HeldBlock before = apart.isEmpty() ? null : apart.remove(key(map, reduce));
    if (before != null) {
      known = true;
      held.remove(before.holder(), reduce, before.size());
    }
    if (holder == mainHolder[map]) {
      set(map, reduce);
    } else {
      if (apart.isEmpty()) {
        apart = new HashMap<>();
      }
      apart.put(key(map, reduce), new HeldBlock(size, holder));
    }
    held.add(holder, reduce, size);
    if (!known && counted[map] == finalAttempt[map] && sums != null) {
      sums.addBlock(inputs[map], reduce, size);
    }
  }

  /** Takes a finished map's final blocks out of the holders' sums (another attempt replaces them). */
  private void unfold(int map) {
    long[] bits = present[map];
    int holder = mainHolder[map];
    if (bits != null && holder != NONE) {
      int[] counts = countsOn(holder, bits.length * 64);
      for (int w = 0; w < bits.length; w++) {
        for (long word = bits[w]; word != 0; word &= word - 1) {
          int r = w * 64 + Long.numberOfTrailingZeros(word);
          held.remove(holder, r, mainBytes(holder, r) / Math.max(1, counts[r]));
        }
      }
    }
    present[map] = null;
    mainHolder[map] = NONE;
    if (!apart.isEmpty()) {
      apart.entrySet().removeIf(e -> {
        if ((int) (e.getKey() >>> 32) != map) {
          return false;
        }
        held.remove(e.getValue().holder(), (int) (long) e.getKey(), e.getValue().size());
        return true;
      });
    }
  }

  int finishedMaps() {
    return finished;
  }

  Optional<Integer> finalAttempt(int map) {
    return map >= 0 && map < finalAttempt.length && finalAttempt[map] != NONE ? Optional.of(finalAttempt[map])
        : Optional.empty();
  }

  SortedSet<Integer> lostMaps() {
    return Collections.unmodifiableSortedSet(lost);
  }

  /** How many finished maps' final output is stored (or was empty). */
  int availableCount() {
    return finished - lost.size();
  }

  /** For each of maps {@code [0, maps)}, whether it finished and its output is not lost. */
  boolean[] stored(int maps) {
    boolean[] out = new boolean[maps];
    for (int m = 0; m < Math.min(maps, finalAttempt.length); m++) {
      out[m] = finalAttempt[m] != NONE && !lost.contains(m);
    }
    return out;
  }

  /** The worker holding a finished, not lost map's blocks, if it stored any. */
  Optional<String> holderOf(int map) {
    if (map < 0 || map >= finalAttempt.length || finalAttempt[map] == NONE || lost.contains(map)) {
      return Optional.empty();
    }
    if (mainHolder[map] != NONE) {
      return Optional.of(held.name(mainHolder[map]));
    }
    for (Map.Entry<Long, HeldBlock> e : apart.entrySet()) {
      if ((int) (e.getKey() >>> 32) == map) {
        return Optional.of(held.name(e.getValue().holder()));
      }
    }
    return Optional.empty();
  }

  long[] inputs() {
    return inputs.clone();
  }

  HeldBytes held() {
    return held;
  }

  /** Eq. 1's sums, empty until the shuffle is registered. */
  Optional<RegressionSums> sums() {
    return Optional.ofNullable(sums);
  }

  /**
   * The final-attempt blocks of {@code reduce} over every finished map, by map id: a block held apart with its own
   * size, the others with their holder's bytes of the reduce shared out evenly (the first few a byte more), so that a
   * holder's located sizes add up to its bytes.
   */
  List<ShuffleState.BlockEntry> finalBlocks(int reduce) {
    int[] count = new int[held.holders()];
    for (int m = 0; m < finalAttempt.length; m++) {
      if (finalAttempt[m] != NONE && has(m, reduce)) {
        count[mainHolder[m]]++;
      }
    }
    long[] share = new long[count.length];
    long[] rest = new long[count.length];
    for (int h = 0; h < count.length; h++) {
      if (count[h] > 0) {
        long bytes = mainBytes(h, reduce);
        share[h] = bytes / count[h];
        rest[h] = bytes % count[h];
      }
    }
    List<ShuffleState.BlockEntry> out = new ArrayList<>();
    for (int m = 0; m < finalAttempt.length; m++) {
      if (finalAttempt[m] == NONE) {
        continue;
      }
      if (has(m, reduce)) {
        int h = mainHolder[m];
        long size = share[h] + (rest[h] > 0 ? 1 : 0);
        rest[h]--;
        out.add(new ShuffleState.BlockEntry(m, finalAttempt[m], size, held.name(h)));
      } else {
        ShuffleState.BlockEntry a = apartEntry(m, reduce);
        if (a != null) {
          out.add(a);
        }
      }
    }
    return out;
  }

  /** Every reported attempt's block of one map for one reduce. */
  List<ShuffleState.BlockEntry> blocksOf(int reduce, int map) {
    List<ShuffleState.BlockEntry> out = new ArrayList<>(2);
    if (map >= 0 && map < finalAttempt.length && finalAttempt[map] != NONE) {
      ShuffleState.BlockEntry b = finalBlock(map, reduce);
      if (b != null) {
        out.add(b);
      }
    }
    running.getOrDefault(map, Map.of()).forEach((attempt, blocks) -> {
      if (blocks.has(reduce)) {
        out.add(new ShuffleState.BlockEntry(map, attempt, blocks.size(reduce), held.name(blocks.holder(reduce))));
      }
    });
    return out;
  }

  /**
   * A finished map's final block of {@code reduce}, as {@link #finalBlocks} lists it: held apart with its own size,
   * else with its share of its holder's bytes of the reduce.
   */
  private ShuffleState.BlockEntry finalBlock(int map, int reduce) {
    if (has(map, reduce)) {
      int h = mainHolder[map];
      int count = blocksOn(h, reduce, finalAttempt.length);
      long bytes = mainBytes(h, reduce);
      long size = bytes / count + (blocksOn(h, reduce, map) < bytes % count ? 1 : 0);
      return new ShuffleState.BlockEntry(map, finalAttempt[map], size, held.name(h));
    }
    return apartEntry(map, reduce);
  }

  /** A finished map's final block of {@code reduce} held apart, with its own size; null if none is. */
  private ShuffleState.BlockEntry apartEntry(int map, int reduce) {
    HeldBlock a = apart.isEmpty() ? null : apart.get(key(map, reduce));
    return a == null ? null : new ShuffleState.BlockEntry(map, finalAttempt[map], a.size(), held.name(a.holder()));
  }

  /** How many maps below {@code belowMap} have, in their bits, a block of {@code reduce} on {@code holder}. */
  private int blocksOn(int holder, int reduce, int belowMap) {
    int count = 0;
    for (int m = 0; m < belowMap; m++) {
      if (mainHolder[m] == holder && has(m, reduce)) {
        count++;
      }
    }
    return count;
  }

  /** {@code holder}'s bytes of {@code reduce} in blocks its maps' bits name (not those held apart). */
  private long mainBytes(int holder, int reduce) {
    return Math.max(0, held.held(holder, reduce) - apartBytes(holder, reduce));
  }

  /** The mean of {@code holder}'s blocks of {@code reduce} in finished maps' bits (those not held apart). */
  private long meanOfMain(int holder, int reduce) {
    int count = blocksOn(holder, reduce, finalAttempt.length);
    return count == 0 ? 0 : mainBytes(holder, reduce) / count;
  }

  /** For each reduce below {@code span}, how many finished maps' bits say {@code holder} has a block of it. */
  private int[] countsOn(int holder, int span) {
    int[] counts = new int[span];
    for (int m = 0; m < finalAttempt.length; m++) {
      long[] bits = present[m];
      if (mainHolder[m] != holder || bits == null) {
        continue;
      }
      for (int w = 0; w < Math.min(bits.length, (span + 63) >>> 6); w++) {
        for (long word = bits[w]; word != 0; word &= word - 1) {
          counts[w * 64 + Long.numberOfTrailingZeros(word)]++;
        }
      }
    }
    return counts;
  }

  /** The bytes of {@code reduce}'s blocks held apart on {@code holder}. */
  private long apartBytes(int holder, int reduce) {
    long bytes = 0;
    for (Map.Entry<Long, HeldBlock> e : apart.entrySet()) {
      if (e.getValue().holder() == holder && (int) (long) e.getKey() == reduce) {
        bytes += e.getValue().size();
      }
    }
    return bytes;
  }

  /** Forgets every block {@code workerId} held; finished maps whose final blocks were there are lost. */
  void dropHolder(String workerId) {
    int holder = held.find(workerId);
    if (holder == NONE) {
      return;
    }
    held.clear(holder);
    for (int m = 0; m < mainHolder.length; m++) {
      if (mainHolder[m] == holder) {
        present[m] = null;
        mainHolder[m] = NONE;
        if (finalAttempt[m] != NONE) {
          lose(m);
        }
      }
    }
    if (!apart.isEmpty()) {
      apart.entrySet().removeIf(e -> {
        if (e.getValue().holder() != holder) {
          return false;
        }
        lose((int) (e.getKey() >>> 32));
        return true;
      });
    }
    running.values().forEach(attempts -> {
      attempts.values().forEach(blocks -> blocks.removeHolder(holder));
      attempts.values().removeIf(AttemptBlocks::isEmpty);
    });
    running.values().removeIf(Map::isEmpty);
  }

  /** Forgets one block its holder lost: when it was a final block, its map is lost until re-run. */
  void dropBlock(int map, int attempt, int reduce, String holderName) {
    int holder = held.find(holderName);
    if (holder == NONE || map < 0 || map >= finalAttempt.length) {
      return;
    }
    if (finalAttempt[map] == attempt) {
      if (has(map, reduce) && mainHolder[map] == holder) {
        held.remove(holder, reduce, meanOfMain(holder, reduce));
        clear(map, reduce);
        lose(map);
        return;
      }
      HeldBlock a = apart.isEmpty() ? null : apart.get(key(map, reduce));
      if (a != null && a.holder() == holder) {
        apart.remove(key(map, reduce));
        held.remove(holder, reduce, a.size());
        lose(map);
      }
      return;
    }
    AttemptBlocks blocks = running.getOrDefault(map, Map.of()).get(attempt);
    if (blocks != null) {
      blocks.remove(reduce, holder);
    }
  }

  /** The map's final output is lost (until re-run or re-reported); its blocks are in eq. 1's sums once already. */
  private void lose(int map) {
    lost.add(map);
    if (counted[map] != NONE) {
      counted[map] = SUMMED;
    }
  }

  private boolean has(int map, int reduce) {
    long[] bits = present[map];
    return reduce >= 0 && bits != null && (reduce >>> 6) < bits.length && (bits[reduce >>> 6] & (1L << reduce)) != 0;
  }

  private void set(int map, int reduce) {
    long[] bits = present[map];
    int words = (reduce >>> 6) + 1;
    if (bits == null || bits.length < words) {
      int grown = bits == null ? reduceWords : bits.length * 2;
      bits = Arrays.copyOf(bits == null ? new long[0] : bits, Math.max(words, grown));
      present[map] = bits;
    }
    bits[reduce >>> 6] |= 1L << reduce;
  }

  private void clear(int map, int reduce) {
    present[map][reduce >>> 6] &= ~(1L << reduce);
  }

  private void ensure(int map) {
    if (map < finalAttempt.length) {
      return;
    }
    int length = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(map + 1L, Math.max(8L, finalAttempt.length * 2L)));
    int from = finalAttempt.length;
    finalAttempt = Arrays.copyOf(finalAttempt, length);
    mainHolder = Arrays.copyOf(mainHolder, length);
    counted = Arrays.copyOf(counted, length);
    present = Arrays.copyOf(present, length);
    Arrays.fill(finalAttempt, from, length, NONE);
    Arrays.fill(mainHolder, from, length, NONE);
    Arrays.fill(counted, from, length, NONE);
  }

  private static long key(int map, int reduce) {
    return ((long) map << 32) | (reduce & 0xFFFFFFFFL);
  }
}
