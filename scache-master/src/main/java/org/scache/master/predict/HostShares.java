package org.scache.master.predict;

import static org.scache.common.Checks.require;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Sums a (map × reduce) block matrix into reduce predictions, grouping each reduce's blocks by the
 * host holding them to find eq. 3's largest share.
 *
 * <p>Host ties are broken by the lexicographically smallest worker id. Blocks of maps with no known
 * host count towards the reduce size but towards no host's share.
 */
final class HostShares {

  /** Random access to predicted or observed block sizes. */
  @FunctionalInterface
  interface BlockSource {
    double block(int map, int reduce);
  }

  private HostShares() {}

  static List<ReducePrediction> predictions(
      int reduceCount, List<Optional<String>> mapHosts, BlockSource blocks) {
    int maps = mapHosts.size();
    TreeSet<String> distinct = new TreeSet<>();
    for (Optional<String> host : mapHosts) {
      host.ifPresent(distinct::add);
    }
    List<String> names = new ArrayList<>(distinct);
    int[] hostOf = new int[maps];
    for (int map = 0; map < maps; map++) {
      hostOf[map] = mapHosts.get(map).map(h -> Collections.binarySearch(names, h)).orElse(-1);
    }
    double[] perHost = new double[names.size()];
    int[] touched = new int[names.size()];
    List<ReducePrediction> out = new ArrayList<>(reduceCount);
    for (int reduce = 0; reduce < reduceCount; reduce++) {
      double total = 0;
      int touchedCount = 0;
      for (int map = 0; map < maps; map++) {
        double block = blocks.block(map, reduce);
        total += block;
        int host = hostOf[map];
        if (host >= 0 && block > 0) {
          if (perHost[host] == 0) {
            touched[touchedCount++] = host;
          }
          perHost[host] += block;
        }
      }
      int best = -1;
      for (int t = 0; t < touchedCount; t++) {
        int host = touched[t];
        if (best < 0 || perHost[host] > perHost[best] || (perHost[host] == perHost[best] && host < best)) {
          best = host;
        }
      }
      if (best < 0 || total <= 0) {
        out.add(ReducePrediction.withoutHost(reduce, Math.max(0, total)));
      } else {
        double prob = Math.min(1.0, perHost[best] / total);
        out.add(ReducePrediction.onHost(reduce, total, prob, names.get(best)));
      }
      for (int t = 0; t < touchedCount; t++) {
        perHost[touched[t]] = 0;
      }
    }
    return List.copyOf(out);
  }

  static void checkHosts(List<Optional<String>> hosts, int expected, String what) {
    require(
        hosts.size() == expected, "%d %s hosts given for %d %ss", hosts.size(), what, expected, what);
    for (int i = 0; i < hosts.size(); i++) {
      Optional<String> host = hosts.get(i);
      require(host != null, "host of %s %d must not be null", what, i);
      int index = i;
      host.ifPresent(h -> require(!h.isBlank(), "host of %s %d must not be blank", what, index));
    }
  }
}
