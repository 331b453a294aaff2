package org.scache.spark;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.IntFunction;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;

/**
 * A map task's output as SCache maps: segment {@code s} of map task {@code m} is SCache's map
 * {@code m × mapsPerTask + s} ({@link ScacheShuffleHandle#scacheMap}). The task writes into the current segment;
 * {@link #cut} stores it and declares it finished, the declaration answered in the background, so that its blocks
 * are prefetched to their reduces' nodes while the task goes on, and the next segment begins; {@link #finish}
 * stores the last segment, declares the unused ones finished without output, and waits for every declaration.
 *
 * <p>What a reader expects: a map with one segment has a block of each partition it wrote to, as an unsegmented
 * map; a map with {@code n > 1} segments has, in each of its first {@code n} segments, a block of each partition it
 * wrote to, empty where that segment had nothing for it. A reader told {@code n} (in the topology info of the map
 * status's location, {@link #topologyInfo}) thus knows every block it must find, and a missing one is a lost one.
 */
final class MapSegments {
  private static final String TOPOLOGY_PREFIX = "scache-segments=";

  private final ScacheClient client;
  private final ScacheShuffleHandle<?, ?, ?> handle;
  private final int mapIndex;
  private final int attempt;
  private final IntFunction<PartitionBlockWriter> writers;
  private final List<long[]> segmentLengths = new ArrayList<>();
  private final List<CompletableFuture<Void>> declared = new ArrayList<>();
  private PartitionBlockWriter current;
  private long waitNanos;

  /** @param writers a writer of the blocks of SCache map {@code scacheMap}, by that map */
  MapSegments(ScacheClient client, ScacheShuffleHandle<?, ?, ?> handle, int mapIndex, int attempt,
      IntFunction<PartitionBlockWriter> writers) {
    this.client = client;
    this.handle = handle;
    this.mapIndex = mapIndex;
    this.attempt = attempt;
    this.writers = writers;
    this.current = writers.apply(handle.scacheMap(mapIndex, 0));
  }

  /** Where the task writes now. */
  PartitionBlockWriter current() {
    return current;
  }

  /** Whether another segment may begin after the current one. */
  boolean mayCut() {
    return segmentLengths.size() < handle.mapsPerTask() - 1;
  }

  /** Stores the current segment (its partitions' streams closed) and declares it finished; the next begins. */
  void cut() throws IOException {
    storeSegment();
    declare(segmentLengths.size() - 1);
    current = writers.apply(handle.scacheMap(mapIndex, segmentLengths.size()));
  }

  /**
   * Stores the last segment, declares the segments not used finished without output, and waits until every
   * segment is declared. Returns each partition's bytes over all segments.
   */
  long[] finish() throws IOException {
    storeSegment();
    int used = segmentLengths.size();
    long[] total = new long[handle.numReduces()];
    for (long[] lengths : segmentLengths) {
      for (int r = 0; r < total.length; r++) {
        total[r] += lengths[r];
      }
    }
    long start = System.nanoTime();
    if (used > 1) {
      putEmptyBlocks(total, used);
    }
    // the last segment is declared after the empty blocks: once every segment is, the map's blocks are complete
    for (int s = used - 1; s < handle.mapsPerTask(); s++) {
      declare(s);
    }
    try {
      awaitAll(declared, "take map");
    } finally {
      waitNanos += System.nanoTime() - start;
    }
    return total;
  }

  /** Segments used, once {@link #finish} returned. */
  int used() {
    return segmentLengths.size();
  }

  /** Nanoseconds the task waited for its puts and declarations, for its shuffle write time. */
  long waitNanos() {
    return waitNanos;
  }

  /** Drops the current segment's buffers: the attempt failed (what it declared never becomes what is read). */
  void abort() {
    current.abort(null);
  }

  /** The topology info a map status's location carries: how many segments the map's output is in. */
  static scala.Option<String> topologyInfo(int used) {
    return scala.Option.apply(TOPOLOGY_PREFIX + used);
  }

  /** The segments a map status's location names, 1 when it names none. */
  static int segmentsOf(org.apache.spark.storage.BlockManagerId location) {
    scala.Option<String> info = location.topologyInfo();
    if (info.isDefined() && info.get().startsWith(TOPOLOGY_PREFIX)) {
      return Integer.parseInt(info.get().substring(TOPOLOGY_PREFIX.length()));
    }
    return 1;
  }

  private void storeSegment() throws IOException {
    segmentLengths.add(current.commitAllPartitions(new long[0]).getPartitionLengths());
    waitNanos += current.putNanos();
  }

  private void declare(int segment) {
    declared.add(client.mapFinishedAsync(handle.shuffleId(), handle.scacheMap(mapIndex, segment), attempt));
  }

  /**
   * For each partition the map wrote to, an empty block in every segment that had nothing for it, put before the
   * last segments are declared, so that the map's blocks are complete when its last segment is.
   */
  private void putEmptyBlocks(long[] total, int used) throws IOException {
    List<CompletableFuture<Void>> puts = new ArrayList<>();
    for (int s = 0; s < used; s++) {
      long[] lengths = segmentLengths.get(s);
      for (int r = 0; r < total.length; r++) {
        if (total[r] > 0 && lengths[r] == 0) {
          puts.add(client.putBlockAsync(new BlockId(handle.appId(), handle.shuffleId(), handle.scacheMap(mapIndex, s),
              attempt, r), List.of()));
        }
      }
    }
    awaitAll(puts, "store an empty block of map");
  }

  /** Waits for {@code calls}; the first that failed fails the task, naming what SCache did not do. */
  private void awaitAll(List<CompletableFuture<Void>> calls, String what) throws IOException {
    try {
      CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).join();
    } catch (CompletionException e) {
      throw new IOException("SCache did not " + what + " " + mapIndex + " of shuffle " + handle.shuffleId() + ": "
          + ScacheException.from(e).getMessage(), e.getCause());
    }
  }
}
