package org.scache.master;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.MapSample;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;

/**
 * What the master knows of one shuffle: its shape, the reported size and holder of every block by
 * reduce and map attempt, each map's final attempt, and its placement once made. Guarded by the
 * {@link ShuffleRegistry}.
 */
final class ShuffleState {
  /** One reported block. */
  record BlockEntry(int mapId, int attempt, long size, String holder) {}

  private final ShuffleKey key;
  private Optional<ShuffleSpec> shape = Optional.empty();
  private final Map<Integer, ReduceBlocks> byReduce = new HashMap<>();
  private final ReduceBlocks.PackedAttempts packed = new ReduceBlocks.PackedAttempts();
  private final Map<Integer, Integer> finalAttempts = new HashMap<>();
  /** The attempts of each map that reported blocks, so that a map's end finds its other attempts' blocks directly. */
  private final Map<Integer, java.util.Set<Integer>> reportedAttempts = new HashMap<>();
  private final java.util.TreeSet<Integer> lostMaps = new java.util.TreeSet<>();
  private Optional<ShufflePlacement> schedule = Optional.empty();
  private final Map<Integer, MapSample> samples = new HashMap<>();
  /** What the {@link ShuffleBudget} charged for this shuffle. */
  private long charged;
  private Optional<ScheduleExplanation> explanation = Optional.empty();
  private java.util.OptionalLong mapsDoneAtMillis = java.util.OptionalLong.empty();
  private boolean balancedAtMapEnd;
  private final ShuffleTraffic traffic = new ShuffleTraffic();

  ShuffleState(ShuffleKey key) {
    this.key = key;
  }

  void register(ShuffleSpec s) {
    if (shape.isPresent()) {
      ShuffleSpec known = shape.get();
      if (known.numMaps() != s.numMaps() || known.numReduces() != s.numReduces()
          || known.partitioner() != s.partitioner()) {
        throw new ScacheException(Status.SHUFFLE_CONFLICT, key + " is registered with " + known.numMaps() + " maps, "
            + known.numReduces() + " reduces, " + known.partitioner() + " partitioner");
      }
      return;
    }
    if (!s.mapInputBytes().isEmpty() && s.mapInputBytes().size() != s.numMaps()) {
      throw new ScacheException(Status.INVALID_ARGUMENT, key + " has " + s.numMaps() + " maps but "
          + s.mapInputBytes().size() + " map input sizes were given");
    }
    shape = Optional.of(s);
  }

  void charged(long bytes) {
    charged = bytes;
  }

  long charged() {
    return charged;
  }

  ShuffleKey shuffle() {
    return key;
  }

  Optional<ShuffleSpec> shape() {
    return shape;
  }

  void report(BlockId id, long size, String holder) {
    if (Integer.valueOf(id.attempt()).equals(finalAttempts.get(id.mapId()))) {
      lostMaps.remove(id.mapId());
    }
    byReduce.computeIfAbsent(id.reduceId(), r -> new ReduceBlocks(packed, shape.map(ShuffleSpec::numMaps).orElse(0)))
        .put(id.mapId(), id.attempt(), size, holder);
    reportedAttempts.computeIfAbsent(id.mapId(), m -> new java.util.HashSet<>(2)).add(id.attempt());
  }

  void mapFinished(int mapId, int attempt) {
    finalAttempts.put(mapId, attempt);
    lostMaps.remove(mapId);
    // blocks of the map's other attempts are dropped by the workers; forget them here too, looking up each
    // such attempt's block of every reduce (a map's end costs its reduces, not the shuffle's blocks)
    java.util.Set<Integer> attempts = reportedAttempts.get(mapId);
    if (attempts == null) {
      return;
    }
    for (int other : attempts) {
      if (other != attempt) {
        for (ReduceBlocks blocks : byReduce.values()) {
          blocks.remove(mapId, other);
        }
      }
    }
    attempts.removeIf(other -> other != attempt);
    if (packed.attempt(mapId) != attempt) {
      repack(mapId, attempt);
    }
  }

  /**
   * The map finished with an attempt other than the one its reduces pack (its first failed or lost the race): its
   * blocks, kept apart so far and now the only ones of the map, are packed instead.
   */
  private void repack(int mapId, int attempt) {
    String holder = null;
    for (ReduceBlocks blocks : byReduce.values()) {
      holder = blocks.holderOf(mapId, attempt);
      if (holder != null) {
        break;
      }
    }
    if (holder == null) {
      return;
    }
    packed.repack(mapId, attempt, packed.holders().indexOf(holder));
    for (ReduceBlocks blocks : byReduce.values()) {
      blocks.repacked(mapId, attempt);
    }
  }

  int finishedMaps() {
    return finalAttempts.size();
  }

  /** The final-attempt blocks of reduce {@code reduceId} over every finished map. */
  List<BlockEntry> finalBlocks(int reduceId) {
    ReduceBlocks blocks = byReduce.get(reduceId);
    List<BlockEntry> list = new ArrayList<>();
    if (blocks != null) {
      finalAttempts.forEach((map, attempt) -> {
        BlockEntry b = blocks.get(map, attempt);
        if (b != null) {
          list.add(b);
        }
      });
    }
    return list;
  }

  /** The reported blocks of one reduce, read in place (sizes and holders without building entries); null if none. */
  ReduceBlocks reduceBlocks(int reduceId) {
    return byReduce.get(reduceId);
  }

  /** Every reported attempt's block of one map for one reduce. */
  List<BlockEntry> blocksOf(int reduceId, int mapId) {
    ReduceBlocks blocks = byReduce.get(reduceId);
    List<BlockEntry> out = new ArrayList<>();
    if (blocks == null) {
      return out;
    }
    for (int attempt : reportedAttempts.getOrDefault(mapId, java.util.Set.of())) {
      BlockEntry b = blocks.get(mapId, attempt);
      if (b != null) {
        out.add(b);
      }
    }
    return out;
  }

  /**
   * Forgets every block held by {@code workerId} (it died, or restarted and re-reports what it
   * still has). Finished maps whose final output was there are lost until re-reported or re-run.
   */
  void dropHolder(String workerId) {
    byReduce.values().forEach(m -> m.removeIf(b -> {
      if (!b.holder().equals(workerId)) {
        return false;
      }
      if (Integer.valueOf(b.attempt()).equals(finalAttempts.get(b.mapId()))) {
        lostMaps.add(b.mapId());
      }
      return true;
    }));
  }

  /**
   * Forgets one block its holder lost (for example a spilled copy that failed its checksum): when
   * it was the final attempt's, the map is lost until re-run.
   */
  void dropBlock(BlockId id, String holder) {
    ReduceBlocks blocks = byReduce.get(id.reduceId());
    if (blocks == null) {
      return;
    }
    BlockEntry b = blocks.get(id.mapId(), id.attempt());
    if (b != null && b.holder().equals(holder)) {
      blocks.remove(id.mapId(), id.attempt());
      if (Integer.valueOf(id.attempt()).equals(finalAttempts.get(id.mapId()))) {
        lostMaps.add(id.mapId());
      }
    }
  }

  /** Finished maps whose final output is no longer stored anywhere, ascending. */
  java.util.SortedSet<Integer> lostMaps() {
    return java.util.Collections.unmodifiableSortedSet(lostMaps);
  }

  Optional<ShufflePlacement> schedule() {
    return schedule;
  }

  void schedule(ShufflePlacement result) {
    schedule = Optional.of(result);
  }

  void explain(ScheduleExplanation why) {
    explanation = Optional.of(why);
  }

  Optional<ScheduleExplanation> explanation() {
    return explanation;
  }

  /** Notes when the last map finished, the first time every map has. */
  void mapsDoneIfAll(long nowMillis) {
    if (mapsDoneAtMillis.isEmpty() && shape.isPresent() && finalAttempts.size() >= shape.get().numMaps()) {
      mapsDoneAtMillis = java.util.OptionalLong.of(nowMillis);
    }
  }

  java.util.OptionalLong mapsDoneAtMillis() {
    return mapsDoneAtMillis;
  }

  /** True the first time it is asked once every map is done and the shuffle is placed: its reduces may be moved. */
  boolean firstLookAtMapEnd() {
    if (balancedAtMapEnd || mapsDoneAtMillis.isEmpty() || schedule.isEmpty()) {
      return false;
    }
    balancedAtMapEnd = true;
    return true;
  }

  ShuffleTraffic traffic() {
    return traffic;
  }

  /** Records sampling results; a map sampled again keeps its latest sample. */
  void addSamples(List<MapSample> more) {
    ShuffleSpec known = shape.orElseThrow(() -> new ScacheException(Status.UNKNOWN_SHUFFLE,
        key + " must be registered before its samples are reported"));
    for (MapSample m : more) {
      if (m.mapId() >= known.numMaps() || m.countsPerReduce().size() != known.numReduces()) {
        throw new ScacheException(Status.INVALID_ARGUMENT, "sample of map " + m.mapId() + " has "
            + m.countsPerReduce().size() + " reduce counts; " + key + " has " + known.numMaps() + " maps and "
            + known.numReduces() + " reduces");
      }
      long sampled = 0;
      for (int c : m.countsPerReduce()) {
        sampled += c;
      }
      if (m.capacity() < 1 || m.capacity() % known.numReduces() != 0 || sampled > m.capacity()) {
        throw new ScacheException(Status.INVALID_ARGUMENT, "sample of map " + m.mapId() + " has capacity "
            + m.capacity() + " and " + sampled + " records; the capacity must be s × " + known.numReduces()
            + " reduces and hold every sampled record");
      }
    }
    for (MapSample m : more) {
      MapSample earlier = samples.values().stream().findAny().orElse(m);
      if (earlier.capacity() != m.capacity()) {
        throw new ScacheException(Status.INVALID_ARGUMENT, "map " + m.mapId() + " was sampled with capacity "
            + m.capacity() + ", other maps of " + key + " with " + earlier.capacity());
      }
      samples.put(m.mapId(), m);
    }
  }

  /** The latest sample of every sampled map, by map id. */
  Map<Integer, MapSample> samples() {
    return java.util.Collections.unmodifiableMap(samples);
  }

  /** Finished maps whose final output is stored, ascending. */
  List<Integer> availableMaps() {
    return finalAttempts.keySet().stream().filter(m -> !lostMaps.contains(m)).sorted().toList();
  }

  /** The final attempt of a finished map. */
  Optional<Integer> finalAttempt(int mapId) {
    return Optional.ofNullable(finalAttempts.get(mapId));
  }

  /**
   * The final-attempt outputs of the finished, not lost maps over reduces {@code [0, numReduces)}, read in place
   * ({@link FinalOutputs}); valid while this shuffle's guard is held.
   */
  FinalOutputs finalOutputs(int numReduces) {
    ReduceBlocks[] reduces = new ReduceBlocks[numReduces];
    byReduce.forEach((reduce, blocks) -> {
      if (reduce < numReduces) {
        reduces[reduce] = blocks;
      }
    });
    int maps = shape.map(ShuffleSpec::numMaps).orElse(0);
    for (int map : finalAttempts.keySet()) {
      maps = Math.max(maps, map + 1);
    }
    int[] attemptOf = new int[maps];
    java.util.Arrays.fill(attemptOf, -1);
    finalAttempts.forEach((map, attempt) -> {
      if (!lostMaps.contains(map)) {
        attemptOf[map] = attempt;
      }
    });
    return new FinalOutputs(reduces, attemptOf);
  }

  /** Moves reduce {@code reduceId} of the stored schedule to another worker and round (a re-shuffle). */
  void moveReduce(int reduceId, org.scache.common.WorkerInfo to, int round) {
    schedule = schedule.map(old -> old.withMoved(reduceId, to, round));
  }
}
