package org.scache.worker;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.scache.common.ShuffleKey;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ReduceMove;
import org.scache.common.shuffle.ShufflePlacement;

/**
 * What a worker knows of the pre-schedule, for choosing what to spill: each placed shuffle's
 * submission time and the round of each of its reduces, and the rounds the master reports as kept
 * only in part somewhere in the cluster. Rounds come with the schedule ({@code SHUFFLE_SCHEDULED}
 * carries each reduce's round, computed by the master from its worker's position and
 * {@code scache.master.schedule.slots.per.worker}); since every worker runs its round k at about
 * the same time, a round number names a cluster-wide unit. Thread-safe.
 */
final class RoundBook {
  /** Where a reduce of a placed shuffle runs: its shuffle's submission time and its round. */
  record Placement(long submissionTimeMillis, int round) {}

  private static final class Shuffle {
    final long submissionTimeMillis;
    final Map<Integer, Integer> roundOfReduce = new HashMap<>();
    final Set<Integer> incompleteInCluster = new HashSet<>();

    Shuffle(long submissionTimeMillis) {
      this.submissionTimeMillis = submissionTimeMillis;
    }
  }

  private final Map<ShuffleKey, Shuffle> shuffles = new HashMap<>();

  /** Learns a placement, and the new rounds of the earlier shuffles' reduces it moved or re-rounded. */
  synchronized void scheduled(ShufflePlacement s, long submissionTimeMillis, List<ReduceMove> moves) {
    ShuffleKey key = new ShuffleKey(s.appId(), s.shuffleId());
    Shuffle shuffle = shuffles.computeIfAbsent(key, k -> new Shuffle(submissionTimeMillis));
    Map<Integer, Integer> rounds = new HashMap<>();
    for (ReduceAssignment a : s.assignments()) {
      shuffle.roundOfReduce.put(a.reduceId(), a.round());
      rounds.put(a.reduceId(), a.round());
    }
    for (ReduceMove move : moves) {
      Shuffle earlier = shuffles.get(new ShuffleKey(s.appId(), move.shuffleId()));
      Integer round = rounds.get(move.reduceId());
      if (earlier != null && round != null) {
        earlier.roundOfReduce.put(move.reduceId(), round);
      }
    }
  }

  /** The placement of a reduce, empty while its shuffle is not placed. */
  synchronized Optional<Placement> placement(ShuffleKey shuffle, int reduceId) {
    Shuffle s = shuffles.get(shuffle);
    if (s == null) {
      return Optional.empty();
    }
    Integer round = s.roundOfReduce.get(reduceId);
    return round == null ? Optional.empty() : Optional.of(new Placement(s.submissionTimeMillis, round));
  }

  /** Whether the master reported this round as kept only in part by some worker. */
  synchronized boolean incompleteInCluster(ShuffleKey shuffle, int round) {
    Shuffle s = shuffles.get(shuffle);
    return s != null && s.incompleteInCluster.contains(round);
  }

  /** Replaces the rounds of a shuffle that some worker keeps only in part. */
  synchronized void incompleteInCluster(ShuffleKey shuffle, List<Integer> rounds) {
    Shuffle s = shuffles.get(shuffle);
    if (s != null) {
      s.incompleteInCluster.clear();
      s.incompleteInCluster.addAll(rounds);
    }
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
