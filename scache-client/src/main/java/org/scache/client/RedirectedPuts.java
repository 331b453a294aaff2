package org.scache.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.scache.common.BlockId;
import org.scache.common.Clock;
import org.scache.common.ScacheException;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a map's blocks go when the node's worker cannot hold them: a put it refuses for capacity (its
 * block limit or the owner's share of it, no room in memory or on disk) is put on another live worker,
 * so that a job's capacity is the cluster's, not one node's. Reduces find every block through the master,
 * whichever worker holds it. The workers that took a map attempt's blocks are remembered until the map
 * finishes: its MAP_FINISHED goes through each of them before the node's worker, so the master has every
 * block's size before it learns the map is final (each worker tells the master in order).
 */
final class RedirectedPuts {
  private static final Logger LOG = LoggerFactory.getLogger(RedirectedPuts.class);
  /** How long the master's list of live workers is used before it is asked again. */
  private static final Duration WORKERS_REUSE = Duration.ofSeconds(10);

  private record MapAttempt(int shuffleId, int mapId, int attempt) {
    static MapAttempt of(BlockId id) {
      return new MapAttempt(id.shuffleId(), id.mapId(), id.attempt());
    }
  }

  private record Listed(List<WorkerInfo> workers, long atNanos) {}

  private final String localWorker;
  private final Supplier<CompletableFuture<List<WorkerInfo>>> liveWorkers;
  private final Clock clock;
  /** The workers, other than the node's, that took blocks of a map attempt not finished yet, in order. */
  private final Map<MapAttempt, Set<String>> takenBy = new ConcurrentHashMap<>();
  private volatile Listed listed;

  /**
   * @param localWorker the node's worker ({@code host:port}), which is never a redirection's target
   * @param liveWorkers asks the master for its live workers
   */
  RedirectedPuts(String localWorker, Supplier<CompletableFuture<List<WorkerInfo>>> liveWorkers, Clock clock) {
    this.localWorker = localWorker;
    this.liveWorkers = liveWorkers;
    this.clock = clock;
  }

  /** Whether a put the node's worker failed with {@code status} goes to another worker. */
  static boolean isCapacity(Status status) {
    return status == Status.LIMIT_EXCEEDED || status == Status.STORE_FULL || status == Status.RETRY_LATER;
  }

  /**
   * Puts block {@code id}, which the node's worker refused with {@code refusal}, on another live worker:
   * first one that took blocks of the same map attempt, then the others starting at one the map attempt
   * picks (so that the maps of a full node spread). {@code put} puts it on the worker at an address.
   * Fails with the node's refusal and each other worker's when none takes it.
   */
  CompletableFuture<Void> putElsewhere(BlockId id, ScacheException refusal,
      Function<String, CompletableFuture<Void>> put) {
    MapAttempt map = MapAttempt.of(id);
    // without the master's list there is nowhere else to go: the node's refusal stands
    CompletableFuture<List<WorkerInfo>> listed = workers().exceptionally(e -> List.of());
    return listed.thenCompose(live -> {
      List<String> order = targets(map, live);
      if (order.isEmpty()) {
        return CompletableFuture.failedFuture(refusal);
      }
      List<String> refusals = new ArrayList<>();
      refusals.add(localWorker + ": " + refusal.getMessage());
      return tryEach(id, map, order, 0, refusal, refusals, put);
    });
  }

  private CompletableFuture<Void> tryEach(BlockId id, MapAttempt map, List<String> order, int next,
      ScacheException first, List<String> refusals, Function<String, CompletableFuture<Void>> put) {
    if (next == order.size()) {
      return CompletableFuture.failedFuture(new ScacheException(first.status(), "no live worker could hold " + id
          + ": " + String.join("; ", refusals)));
    }
    String to = order.get(next);
    return put.apply(to).handle((ok, e) -> {
      if (e == null) {
        Set<String> workers = takenBy.computeIfAbsent(map, m -> ConcurrentHashMap.newKeySet());
        if (workers.add(to)) {
          LOG.warn("the worker at {} cannot hold the blocks of map {} attempt {} of shuffle {} ({}): they go to "
              + "the worker at {}", localWorker, map.mapId(), map.attempt(), map.shuffleId(), first.getMessage(), to);
        }
        return CompletableFuture.<Void>completedFuture(null);
      }
      ScacheException se = ScacheException.from(e);
      refusals.add(to + ": " + se.getMessage());
      return tryEach(id, map, order, next + 1, first, refusals, put);
    }).thenCompose(f -> f);
  }

  /** The other live workers in the order a redirected block of {@code map} tries them. */
  private List<String> targets(MapAttempt map, List<WorkerInfo> live) {
    List<String> others = new ArrayList<>();
    for (WorkerInfo w : live) {
      if (!w.address().equals(localWorker)) {
        others.add(w.address());
      }
    }
    if (others.isEmpty()) {
      return others;
    }
    others.sort(null);
    int start = Math.floorMod(map.hashCode(), others.size());
    Set<String> order = new LinkedHashSet<>(takenBy.getOrDefault(map, Set.of()));
    for (int i = 0; i < others.size(); i++) {
      order.add(others.get((start + i) % others.size()));
    }
    order.retainAll(others);
    return new ArrayList<>(order);
  }

  private CompletableFuture<List<WorkerInfo>> workers() {
    Listed l = listed;
    if (l != null && clock.nanos() - l.atNanos() < WORKERS_REUSE.toNanos()) {
      return CompletableFuture.completedFuture(l.workers());
    }
    return liveWorkers.get().thenApply(w -> {
      listed = new Listed(w, clock.nanos());
      return w;
    });
  }

  /**
   * The workers other than the node's that took blocks of a map attempt, which its MAP_FINISHED goes
   * through first; forgets them.
   */
  List<String> takeWorkersOf(int shuffleId, int mapId, int attempt) {
    Set<String> workers = takenBy.remove(new MapAttempt(shuffleId, mapId, attempt));
    return workers == null ? List.of() : List.copyOf(workers);
  }
}
