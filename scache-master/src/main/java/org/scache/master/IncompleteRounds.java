package org.scache.master;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.scache.common.ShuffleKey;
import org.scache.common.shuffle.RoundState;
import org.scache.common.shuffle.ShuffleRounds;

/**
 * The cluster-wide view of the paper's all-or-nothing constraint (Section IV-B): which rounds of
 * which shuffles some worker keeps only in part because it spilled from them. A round is
 * incomplete while at least one worker says so. Every change yields the shuffle's new list of
 * incomplete rounds, which the master sends to every worker so that all of them spill those rounds
 * first. Thread-safe.
 */
final class IncompleteRounds {
  private final Map<ShuffleKey, Map<Integer, Set<String>>> byShuffle = new HashMap<>();

  /**
   * Records what worker {@code workerId} reported; returns, for each shuffle whose set of incomplete
   * rounds changed, its new list.
   */
  synchronized List<ShuffleRounds> report(String workerId, List<RoundState> states) {
    Set<ShuffleKey> changed = new HashSet<>();
    for (RoundState s : states) {
      ShuffleKey key = new ShuffleKey(s.appId(), s.shuffleId());
      Map<Integer, Set<String>> rounds = byShuffle.computeIfAbsent(key, k -> new HashMap<>());
      if (s.incomplete()) {
        Set<String> workers = rounds.computeIfAbsent(s.round(), r -> new HashSet<>());
        if (workers.add(workerId) && workers.size() == 1) {
          changed.add(key);
        }
      } else {
        Set<String> workers = rounds.get(s.round());
        if (workers != null && workers.remove(workerId) && workers.isEmpty()) {
          rounds.remove(s.round());
          changed.add(key);
        }
      }
      if (rounds.isEmpty()) {
        byShuffle.remove(key);
      }
    }
    return listsOf(changed);
  }

  /** Forgets what a lost worker reported; returns the changed lists. */
  synchronized List<ShuffleRounds> dropWorker(String workerId) {
    Set<ShuffleKey> changed = new HashSet<>();
    byShuffle.forEach((key, rounds) -> rounds.values().removeIf(workers -> {
      if (workers.remove(workerId) && workers.isEmpty()) {
        changed.add(key);
        return true;
      }
      return false;
    }));
    byShuffle.values().removeIf(Map::isEmpty);
    return listsOf(changed);
  }

  /** The incomplete rounds of a shuffle, ascending. */
  synchronized List<Integer> of(ShuffleKey shuffle) {
    return new ArrayList<>(new TreeSet<>(byShuffle.getOrDefault(shuffle, Map.of()).keySet()));
  }

  synchronized void forgetShuffle(ShuffleKey shuffle) {
    byShuffle.remove(shuffle);
  }

  synchronized void forgetApplication(String appId) {
    byShuffle.keySet().removeIf(k -> k.appId().equals(appId));
  }

  private List<ShuffleRounds> listsOf(Set<ShuffleKey> changed) {
    List<ShuffleRounds> out = new ArrayList<>();
    for (ShuffleKey k : changed) {
      out.add(new ShuffleRounds(k.appId(), k.shuffleId(), of(k)));
    }
    out.sort(java.util.Comparator.comparing(ShuffleRounds::appId)
        .thenComparingInt(ShuffleRounds::shuffleId));
    return out;
  }
}
