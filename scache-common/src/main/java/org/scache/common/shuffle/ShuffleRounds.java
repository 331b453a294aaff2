package org.scache.common.shuffle;

import java.util.List;

/** The rounds of one shuffle that some worker keeps only in part, ascending (paper IV-B's all-or-nothing). */
public record ShuffleRounds(String appId, int shuffleId, List<Integer> rounds) {
  public ShuffleRounds {
    rounds = List.copyOf(rounds);
  }
}
