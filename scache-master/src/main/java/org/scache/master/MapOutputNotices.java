package org.scache.master;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.scache.common.BlockId;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.ReduceAssignment;
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
      List<BlockSize> blocks) {}

  private MapOutputNotices() {}

  static List<Notice> forFinishedMap(ShuffleState s, int mapId, int attempt,
      Function<String, Optional<WorkerInfo>> liveWorker) {
    Optional<ShufflePlacement> schedule = s.schedule();
    if (schedule.isEmpty()) {
      return List.of();
    }
    // by target worker, then by holder (one, unless the map's blocks were reported by several workers); each block
    // is looked up in place, so a map's end allocates little beyond the notices' own blocks
    Map<String, Map<String, List<BlockSize>>> byTargetAndHolder = new LinkedHashMap<>();
    Map<String, WorkerInfo> targets = new LinkedHashMap<>();
    for (ReduceAssignment a : schedule.get().assignments()) {
      ReduceBlocks reported = s.reduceBlocks(a.reduceId());
      String holder = reported == null ? null : reported.holderOf(mapId, attempt);
      String target = a.worker().workerId();
      if (holder == null || holder.equals(target)) {
        continue;
      }
      targets.putIfAbsent(target, a.worker());
      BlockId id = new BlockId(s.shuffle().appId(), s.shuffle().shuffleId(), mapId, attempt, a.reduceId());
      byTargetAndHolder.computeIfAbsent(target, t -> new LinkedHashMap<>(2))
          .computeIfAbsent(holder, h -> new ArrayList<>()).add(
              new BlockSize(id, reported.sizeOf(mapId, attempt)));
    }
    List<Notice> notices = new ArrayList<>();
    byTargetAndHolder.forEach((target, byHolder) -> byHolder.forEach((holder, blocks) ->
        liveWorker.apply(holder).ifPresent(h -> notices.add(new Notice(targets.get(target), s.shuffle(), mapId,
            attempt, h, blocks)))));
    return notices;
  }
}
