package org.scache.master;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.protocol.BlockRoom;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.ShuffleSpec;

/**
 * Every shuffle the master tracks, by application, and the last {@value #REFUSED_KEPT} whose registration it refused
 * (so that their finished maps are refused too). All access goes through {@link #with}.
 */
final class ShuffleRegistry {
  static final int REFUSED_KEPT = 4096;

  private final Map<ShuffleKey, ShuffleState> shuffles = new HashMap<>();
  private final Map<ShuffleKey, Boolean> refused = new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<ShuffleKey, Boolean> eldest) {
      return size() > REFUSED_KEPT;
    }
  };
  private final ShuffleBudget budget;

  ShuffleRegistry() {
    this(ShuffleBudget.unlimited());
  }

  ShuffleRegistry(ShuffleBudget budget) {
    this.budget = budget;
  }

  /**
   * Registers {@code spec} (charging the budget the first time, which may refuse it with
   * LIMIT_EXCEEDED) and runs {@code then} on its state, under the registry's lock.
   */
  synchronized <T> T register(ShuffleSpec spec, Function<ShuffleState, T> then) {
    return register(spec, s -> { }, then);
  }

  /**
   * As {@link #register(ShuffleSpec, Function)}, where a shuffle not yet registered must also pass {@code admit}
   * (which throws to refuse it), checked once the budget took it.
   */
  synchronized <T> T register(ShuffleSpec spec, Consumer<ShuffleSpec> admit, Function<ShuffleState, T> then) {
    ShuffleKey key = new ShuffleKey(spec.appId(), spec.shuffleId());
    ShuffleState existing = shuffles.get(key);
    if (existing != null && existing.shape().isPresent()) {
      existing.register(spec);
      return then.apply(existing);
    }
    long charge;
    try {
      charge = budget.charge(spec);
    } catch (RuntimeException e) {
      refused.put(key, true);
      throw e;
    }
    ShuffleState s = existing != null ? existing : new ShuffleState(key);
    try {
      admit.accept(spec);
      s.register(spec);
    } catch (RuntimeException e) {
      budget.release(spec.appId(), charge);
      refused.put(key, true);
      throw e;
    }
    refused.remove(key);
    s.charged(charge);
    shuffles.put(key, s);
    return then.apply(s);
  }

  /** Runs {@code action} on the shuffle's state, creating it if needed, under the registry's lock. */
  synchronized <T> T with(ShuffleKey key, Function<ShuffleState, T> action) {
    return action.apply(shuffles.computeIfAbsent(key, ShuffleState::new));
  }

  /** Runs {@code action} on an existing shuffle's state; UNKNOWN_SHUFFLE when there is none. */
  synchronized <T> T withExisting(ShuffleKey key, Function<ShuffleState, T> action) {
    ShuffleState s = shuffles.get(key);
    if (s == null) {
      throw new ScacheException(Status.UNKNOWN_SHUFFLE, key + " is not known to the master");
    }
    return action.apply(s);
  }

  /** Runs {@code action} on the shuffle's state if the master knows it. */
  synchronized void ifPresent(ShuffleKey key, Consumer<ShuffleState> action) {
    ShuffleState s = shuffles.get(key);
    if (s != null) {
      action.accept(s);
    }
  }

  /** Runs {@code view} on every shuffle's state, ordered by application and shuffle id, under the lock. */
  synchronized <T> List<T> map(Function<ShuffleState, T> view) {
    return shuffles.values().stream()
        .sorted(java.util.Comparator.comparing((ShuffleState s) -> s.shuffle().appId())
            .thenComparingInt(s -> s.shuffle().shuffleId()))
        .map(view).toList();
  }

  /**
   * The blocks the registered shuffles have still to put: a shuffle of M maps and R reduces puts R blocks a map, and
   * its maps not finished yet have not all been counted in their workers' heartbeats. What the cluster's room is
   * booked for ({@link ClusterBlockRoom}), so that two jobs checked one after the other do not both count on it.
   */
  synchronized long blocksToCome() {
    long toCome = 0;
    for (ShuffleState s : shuffles.values()) {
      Optional<ShuffleSpec> shape = s.shape();
      if (shape.isPresent()) {
        long maps = Math.max(0, shape.get().numMaps() - s.finishedMaps());
        toCome = ClusterBlockRoom.saturated(toCome, BlockRoom.blocksOf(maps, shape.get().numReduces()));
      }
    }
    return toCome;
  }

  synchronized int size() {
    return shuffles.size();
  }

  /** The shuffle's state if known; only for use inside an action of {@link #with} (same lock). */
  synchronized Optional<ShuffleState> peek(ShuffleKey key) {
    return Optional.ofNullable(shuffles.get(key));
  }

  /** Whether the last registration of {@code key} was refused (and it was not registered nor removed since). */
  synchronized boolean wasRefused(ShuffleKey key) {
    return refused.containsKey(key);
  }

  synchronized boolean remove(ShuffleKey key) {
    refused.remove(key);
    ShuffleState s = shuffles.remove(key);
    if (s != null) {
      budget.release(key.appId(), s.charged());
    }
    return s != null;
  }

  synchronized List<ShuffleKey> removeApplication(String appId) {
    List<ShuffleKey> removed = new ArrayList<>();
    refused.keySet().removeIf(k -> k.appId().equals(appId));
    shuffles.entrySet().removeIf(e -> {
      if (e.getKey().appId().equals(appId)) {
        removed.add(e.getKey());
        budget.release(appId, e.getValue().charged());
        return true;
      }
      return false;
    });
    return removed;
  }

  synchronized void dropHolder(String workerId) {
    shuffles.values().forEach(s -> s.dropHolder(workerId));
  }
}
