package org.scache.master.predict;

import java.util.List;

/**
 * The outputs of a shuffle's finished maps, read where they are kept: eq. 1's observations. A master reads them in
 * place from its packed block state rather than copy them into a map × reduce matrix, which for a wide shuffle would
 * take as much heap again as the blocks' own state.
 */
public interface ObservedOutputs {
  /** The observed maps, ascending, each once. */
  int[] maps();

  /** The worker id holding an observed map's output. */
  String host(int map);

  /** Bytes an observed map produced for {@code reduce} (0 where it produced none). */
  long blockBytes(int map, int reduce);

  /** The observations of a list of map outputs, at most one per map id. */
  static ObservedOutputs of(List<ObservedMapOutput> outputs) {
    java.util.TreeMap<Integer, ObservedMapOutput> byMap = new java.util.TreeMap<>();
    for (ObservedMapOutput o : outputs) {
      java.util.Objects.requireNonNull(o, "observed map output");
      org.scache.common.Checks.require(byMap.put(o.mapId(), o) == null, "map %d is observed twice", o.mapId());
    }
    int[] maps = byMap.keySet().stream().mapToInt(Integer::intValue).toArray();
    return new ObservedOutputs() {
      @Override
      public int[] maps() {
        return maps.clone();
      }

      @Override
      public String host(int map) {
        return byMap.get(map).host();
      }

      @Override
      public long blockBytes(int map, int reduce) {
        return byMap.get(map).blockBytes(reduce);
      }
    };
  }
}
