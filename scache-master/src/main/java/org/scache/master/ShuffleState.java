package org.scache.master;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.protocol.Message.RegisterShuffle;
import org.scache.common.protocol.Message.ScheduleResult;
import org.scache.common.protocol.Status;

/**
 * What the master knows of one shuffle: its shape, the reported size and holder of every block by
 * reduce and map attempt, each map's final attempt, and its placement once made. Guarded by the
 * {@link ShuffleRegistry}.
 */
final class ShuffleState {
  /** One reported block. */
  record BlockEntry(int mapId, int attempt, long size, String holder) {}

  private final ShuffleKey key;
  private Optional<RegisterShuffle> shape = Optional.empty();
  private final Map<Integer, Map<Long, BlockEntry>> byReduce = new HashMap<>();
  private final Map<Integer, Integer> finalAttempts = new HashMap<>();
  private final java.util.TreeSet<Integer> lostMaps = new java.util.TreeSet<>();
  private Optional<ScheduleResult> schedule = Optional.empty();

  ShuffleState(ShuffleKey key) {
    this.key = key;
  }

  void register(RegisterShuffle s) {
    if (shape.isPresent()) {
      RegisterShuffle known = shape.get();
      if (known.numMaps() != s.numMaps() || known.numReduces() != s.numReduces()
          || known.partitioner() != s.partitioner()) {
        throw new ScacheException(Status.SHUFFLE_CONFLICT, key + " is registered with " + known.numMaps() + " maps, "
            + known.numReduces() + " reduces, " + known.partitioner() + " partitioner");
      }
      return;
    }
    shape = Optional.of(s);
  }

  ShuffleKey shuffle() {
    return key;
  }

  Optional<RegisterShuffle> shape() {
    return shape;
  }

  void report(BlockId id, long size, String holder) {
    if (Integer.valueOf(id.attempt()).equals(finalAttempts.get(id.mapId()))) {
      lostMaps.remove(id.mapId());
    }
    byReduce.computeIfAbsent(id.reduceId(), r -> new HashMap<>())
        .put(mapAttempt(id.mapId(), id.attempt()), new BlockEntry(id.mapId(), id.attempt(), size, holder));
  }

  void mapFinished(int mapId, int attempt) {
    finalAttempts.put(mapId, attempt);
    lostMaps.remove(mapId);
    // blocks of the map's other attempts are dropped by the workers; forget them here too
    for (Map<Long, BlockEntry> blocks : byReduce.values()) {
      blocks.values().removeIf(b -> b.mapId() == mapId && b.attempt() != attempt);
    }
  }

  int finishedMaps() {
    return finalAttempts.size();
  }

  /** The final-attempt blocks of reduce {@code reduceId} over every finished map. */
  List<BlockEntry> finalBlocks(int reduceId) {
    Map<Long, BlockEntry> blocks = byReduce.getOrDefault(reduceId, Map.of());
    List<BlockEntry> list = new ArrayList<>();
    finalAttempts.forEach((map, attempt) -> {
      BlockEntry b = blocks.get(mapAttempt(map, attempt));
      if (b != null) {
        list.add(b);
      }
    });
    return list;
  }

  /** Every reported attempt's block of one map for one reduce. */
  List<BlockEntry> blocksOf(int reduceId, int mapId) {
    return byReduce.getOrDefault(reduceId, Map.of()).values().stream().filter(b -> b.mapId() == mapId).toList();
  }

  /**
   * Forgets every block held by {@code workerId} (it died, or restarted and re-reports what it
   * still has). Finished maps whose final output was there are lost until re-reported or re-run.
   */
  void dropHolder(String workerId) {
    byReduce.values().forEach(m -> m.values().removeIf(b -> {
      if (!b.holder().equals(workerId)) {
        return false;
      }
      if (Integer.valueOf(b.attempt()).equals(finalAttempts.get(b.mapId()))) {
        lostMaps.add(b.mapId());
      }
      return true;
    }));
  }

  /** Finished maps whose final output is no longer stored anywhere, ascending. */
  java.util.SortedSet<Integer> lostMaps() {
    return java.util.Collections.unmodifiableSortedSet(lostMaps);
  }

  Optional<ScheduleResult> schedule() {
    return schedule;
  }

  void schedule(ScheduleResult result) {
    schedule = Optional.of(result);
  }

  private static long mapAttempt(int map, int attempt) {
    return ((long) map << 32) | (attempt & 0xFFFFFFFFL);
  }
}
