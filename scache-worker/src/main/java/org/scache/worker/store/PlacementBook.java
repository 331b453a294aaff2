package org.scache.worker.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ReduceMove;
import org.scache.common.shuffle.ShufflePlacement;

/**
 * What a worker knows of the pre-schedule, the one place the master's placements are read into:
 * each placed shuffle's submission time, the worker and round of each of its reduces (as placed, or
 * as a later shuffle's placement moved them), every worker the placement involves, and the rounds the
 * master reports as kept only in part somewhere in the cluster. The spill order reads the rounds, the
 * prefetcher copies the first rounds' inputs first, and a read that cannot reach the master looks for
 * a block on the placement's workers. Rounds come with the schedule ({@code SHUFFLE_SCHEDULED}
 * carries each reduce's round, computed by the master from its worker's position and
 * {@code scache.master.schedule.slots.per.worker}); since every worker runs its round k at about
 * the same time, a round number names a cluster-wide unit. Thread-safe.
 */
public final class PlacementBook {
  /** Where a reduce of a placed shuffle runs: its shuffle's submission time and its round. */
  public record Placement(long submissionTimeMillis, int round) {}

  private static final class Shuffle {
    final long submissionTimeMillis;
    /** Each reduce's place: one object a round, which the store's blocks of its reduces keep. */
    final Map<Integer, Placement> ofReduce = new HashMap<>();
    final Map<Integer, Placement> ofRound = new HashMap<>();
    final Map<Integer, WorkerInfo> workerOfReduce = new HashMap<>();
    final Map<String, WorkerInfo> workers = new LinkedHashMap<>();
    final Set<Integer> incompleteInCluster = new HashSet<>();

    Shuffle(long submissionTimeMillis) {
      this.submissionTimeMillis = submissionTimeMillis;
    }

    void round(int reduceId, int round) {
      ofReduce.put(reduceId, ofRound.computeIfAbsent(round, r -> new Placement(submissionTimeMillis, r)));
    }
  }

  private final Map<ShuffleKey, Shuffle> shuffles = new HashMap<>();

  /**
   * Learns a placement, and the new workers and rounds of the earlier shuffles' reduces it moved or
   * re-rounded.
   */
  synchronized void scheduled(ShufflePlacement s, long submissionTimeMillis, List<ReduceMove> moves) {
    ShuffleKey key = new ShuffleKey(s.appId(), s.shuffleId());
    Shuffle shuffle = shuffles.computeIfAbsent(key, k -> new Shuffle(submissionTimeMillis));
    Map<Integer, Integer> rounds = new HashMap<>();
    for (ReduceAssignment a : s.assignments()) {
      shuffle.round(a.reduceId(), a.round());
      shuffle.workerOfReduce.put(a.reduceId(), a.worker());
      shuffle.workers.put(a.worker().workerId(), a.worker());
      rounds.put(a.reduceId(), a.round());
    }
    for (ReduceMove move : moves) {
      Shuffle earlier = shuffles.get(new ShuffleKey(s.appId(), move.shuffleId()));
      if (earlier == null) {
        continue;
      }
      earlier.workerOfReduce.put(move.reduceId(), move.to());
      earlier.workers.put(move.to().workerId(), move.to());
      Integer round = rounds.get(move.reduceId());
      if (round != null) {
        earlier.round(move.reduceId(), round);
      }
    }
  }

  /** Whether a placement of {@code shuffle} reached this worker. */
  public synchronized boolean isPlaced(ShuffleKey shuffle) {
    return shuffles.containsKey(shuffle);
  }

  /**
   * The workers to ask for a block of {@code reduceId} when the master cannot say where it is: the
   * reduce's own worker first (its input was prefetched there), then every other worker of the
   * placement; never {@code self}.
   */
  public synchronized List<WorkerInfo> candidates(ShuffleKey shuffle, int reduceId, String self) {
    Shuffle s = shuffles.get(shuffle);
    List<WorkerInfo> out = new ArrayList<>();
    if (s == null) {
      return out;
    }
    WorkerInfo own = s.workerOfReduce.get(reduceId);
    if (own != null && !own.workerId().equals(self)) {
      out.add(own);
    }
    for (WorkerInfo w : s.workers.values()) {
      if (!w.workerId().equals(self) && !out.contains(w)) {
        out.add(w);
      }
    }
    return out;
  }

  /** Whether the book places {@code reduceId} on a worker other than {@code self} (false while it does not know). */
  public synchronized boolean placedElsewhere(ShuffleKey shuffle, int reduceId, String self) {
    Shuffle s = shuffles.get(shuffle);
    WorkerInfo w = s == null ? null : s.workerOfReduce.get(reduceId);
    return w != null && !w.workerId().equals(self);
  }

  /** The placement of a reduce, empty while its shuffle is not placed. */
  public synchronized Optional<Placement> placement(ShuffleKey shuffle, int reduceId) {
    Shuffle s = shuffles.get(shuffle);
    if (s == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(s.ofReduce.get(reduceId));
  }

  /** Whether the master reported this round as kept only in part by some worker. */
  synchronized boolean incompleteInCluster(ShuffleKey shuffle, int round) {
    Shuffle s = shuffles.get(shuffle);
    return s != null && s.incompleteInCluster.contains(round);
  }

  /**
   * Replaces the rounds of a shuffle that some worker keeps only in part; returns the rounds that became, or stopped
   * being, so.
   */
  synchronized Set<Integer> incompleteInCluster(ShuffleKey shuffle, List<Integer> rounds) {
    Shuffle s = shuffles.get(shuffle);
    if (s == null) {
      return Set.of();
    }
    Set<Integer> now = new HashSet<>(rounds);
    Set<Integer> turned = new HashSet<>(now);
    turned.addAll(s.incompleteInCluster);
    for (int r : now) {
      if (s.incompleteInCluster.contains(r)) {
        turned.remove(r);
      }
    }
    s.incompleteInCluster.clear();
    s.incompleteInCluster.addAll(now);
    return turned;
  }

  /** How many rounds, over all shuffles, the master reported as kept only in part somewhere. */
  synchronized int incompleteInClusterCount() {
    int n = 0;
    for (Shuffle s : shuffles.values()) {
      n += s.incompleteInCluster.size();
    }
    return n;
  }

  synchronized void forgetShuffle(ShuffleKey shuffle) {
    shuffles.remove(shuffle);
  }

  synchronized void forgetApplication(String appId) {
    shuffles.keySet().removeIf(k -> k.appId().equals(appId));
  }
}
