package org.scache.master;

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
import org.scache.master.predict.HeldBytes;
import org.scache.master.predict.RegressionSums;

/**
 * What the master knows of one shuffle: its shape, its blocks ({@link ShuffleBlocks}: each map's final attempt and
 * where its blocks are, their sizes as sums), and its placement once made. Guarded by the
 * {@link ShuffleRegistry}.
 */
final class ShuffleState {
  /** One reported block. */
  record BlockEntry(int mapId, int attempt, long size, String holder) {}

  private final ShuffleKey key;
  private Optional<ShuffleSpec> shape = Optional.empty();
  private final ShuffleBlocks blocks = new ShuffleBlocks();
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
    long[] inputs = new long[s.numMaps()];
    for (int m = 0; m < inputs.length; m++) {
      // unknown input sizes count as equal: then a map not observed is predicted the mean
      inputs[m] = s.mapInputBytes().isEmpty() ? 1 : s.mapInputBytes().get(m);
    }
    blocks.shapeKnown(inputs, s.numReduces());
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
    blocks.report(id.mapId(), id.attempt(), id.reduceId(), size, holder);
  }

  /**
   * The map ended with {@code attempt}: its blocks of that attempt are its output, those of its other attempts are
   * dropped by the workers and forgotten here. Returns that attempt's blocks as reported, or null if none was.
   */
  AttemptBlocks mapFinished(int mapId, int attempt) {
    return blocks.mapFinished(mapId, attempt);
  }

  int finishedMaps() {
    return blocks.finishedMaps();
  }

  /**
   * The final-attempt blocks of reduce {@code reduceId} over every finished map: each with its holder and, as the
   * master keeps sums and not a size per block, the mean size of the reduce's blocks on that holder.
   */
  List<BlockEntry> finalBlocks(int reduceId) {
    return blocks.finalBlocks(reduceId);
  }

  /** Every reported attempt's block of one map for one reduce. */
  List<BlockEntry> blocksOf(int reduceId, int mapId) {
    return blocks.blocksOf(reduceId, mapId);
  }

  /**
   * Forgets every block held by {@code workerId} (it died, or restarted and re-reports what it
   * still has). Finished maps whose final output was there are lost until re-reported or re-run.
   */
  void dropHolder(String workerId) {
    blocks.dropHolder(workerId);
  }

  /**
   * Forgets one block its holder lost (for example a spilled copy that failed its checksum): when
   * it was the final attempt's, the map is lost until re-run.
   */
  void dropBlock(BlockId id, String holder) {
    blocks.dropBlock(id.mapId(), id.attempt(), id.reduceId(), holder);
  }

  /** Finished maps whose final output is no longer stored anywhere, ascending. */
  java.util.SortedSet<Integer> lostMaps() {
    return blocks.lostMaps();
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
    if (mapsDoneAtMillis.isEmpty() && shape.isPresent() && blocks.finishedMaps() >= shape.get().numMaps()) {
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

  /** How many finished maps' final output is stored (or was empty). */
  int availableCount() {
    return blocks.availableCount();
  }

  /** The final attempt of a finished map. */
  Optional<Integer> finalAttempt(int mapId) {
    return blocks.finalAttempt(mapId);
  }

  /** The worker holding a finished, not lost map's output, if it stored any. */
  Optional<String> holderOf(int mapId) {
    return blocks.holderOf(mapId);
  }

  /** For each of maps {@code [0, maps)}, whether its output is known: it finished and is not lost. */
  boolean[] storedMaps(int maps) {
    return blocks.stored(maps);
  }

  /** The stored final blocks' bytes by holder and reduce. */
  HeldBytes held() {
    return blocks.held();
  }

  /** Each map's input size, eq. 1's x (all 1 when the framework gave none), once registered. */
  long[] mapInputs() {
    return blocks.inputs();
  }

  /** Eq. 1's sums over the maps finished so far, once registered. */
  Optional<RegressionSums> regressionSums() {
    return blocks.sums();
  }

  /** Moves reduce {@code reduceId} of the stored schedule to another worker and round (a re-shuffle). */
  void moveReduce(int reduceId, org.scache.common.WorkerInfo to, int round) {
    schedule = schedule.map(old -> old.withMoved(reduceId, to, round));
  }
}
