package org.scache.master;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ReduceSizes;
import org.scache.common.shuffle.ShufflePlacement;

/**
 * Tells the workers reduces are placed on about a map that finished after the placement: for each
 * such worker, the map's final-attempt blocks of its reduces and their holder, so it prefetches
 * them as they appear. Blocks the worker holds itself are left out.
 */
final class MapOutputNotices {
  /**
   * A notice for worker {@code to}: map {@code mapId}'s final attempt {@code attempt} put these
   * blocks of reduces placed on {@code to}, and {@code holder} has them.
   */
  record Notice(WorkerInfo to, ShuffleKey shuffle, int mapId, int attempt, WorkerInfo holder,
      ReduceSizes blocks) {}

  private MapOutputNotices() {}

  /** The notices of map {@code mapId}'s end with {@code attempt}, whose blocks were {@code blocks} (null: none). */
  static List<Notice> forFinishedMap(ShuffleState s, int mapId, int attempt, AttemptBlocks blocks,
      Function<String, Optional<WorkerInfo>> liveWorker) {
    Optional<ShufflePlacement> schedule = s.schedule();
    if (schedule.isEmpty() || blocks == null) {
      return List.of();
    }
    // by target worker, then by holder (one, unless the map's blocks were reported by several workers)
    Map<String, Map<String, ReduceSizes.Builder>> byTargetAndHolder = new LinkedHashMap<>();
    Map<String, WorkerInfo> targets = new LinkedHashMap<>();
    for (ReduceAssignment a : schedule.get().assignments()) {
      if (!blocks.has(a.reduceId())) {
        continue;
      }
      String holder = s.held().name(blocks.holder(a.reduceId()));
      String target = a.worker().workerId();
      if (holder.equals(target)) {
        continue;
      }
      targets.putIfAbsent(target, a.worker());
      byTargetAndHolder.computeIfAbsent(target, t -> new LinkedHashMap<>(2))
          .computeIfAbsent(holder, h -> ReduceSizes.builder()).add(a.reduceId(), blocks.size(a.reduceId()));
    }
    List<Notice> notices = new ArrayList<>();
    byTargetAndHolder.forEach((target, byHolder) -> byHolder.forEach((holder, list) ->
        liveWorker.apply(holder).ifPresent(h -> notices.add(new Notice(targets.get(target), s.shuffle(), mapId,
            attempt, h, list.build())))));
    return notices;
  }
}
