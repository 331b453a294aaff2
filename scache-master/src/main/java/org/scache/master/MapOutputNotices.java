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
    Map<List<String>, List<BlockSize>> byTargetAndHolder = new LinkedHashMap<>();
    Map<String, WorkerInfo> targets = new LinkedHashMap<>();
    for (ReduceAssignment a : schedule.get().assignments()) {
      Optional<ShuffleState.BlockEntry> block = s.block(a.reduceId(), mapId, attempt);
      if (block.isEmpty() || block.get().holder().equals(a.worker().workerId())) {
        continue;
      }
      targets.put(a.worker().workerId(), a.worker());
      BlockId id = new BlockId(s.shuffle().appId(), s.shuffle().shuffleId(), mapId, attempt, a.reduceId());
      byTargetAndHolder.computeIfAbsent(List.of(a.worker().workerId(), block.get().holder()), k -> new ArrayList<>())
          .add(new BlockSize(id, block.get().size()));
    }
    List<Notice> notices = new ArrayList<>();
    byTargetAndHolder.forEach((key, blocks) -> liveWorker.apply(key.get(1)).ifPresent(holder ->
        notices.add(new Notice(targets.get(key.get(0)), s.shuffle(), mapId, attempt, holder, blocks))));
    return notices;
  }
}
