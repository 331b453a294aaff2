package org.scache.tez;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.tez.runtime.library.api.TezRuntimeConfiguration;
import org.scache.client.ShuffleHints;
import org.scache.common.shuffle.PartitionerKind;

/**
 * The SCache shuffle of one Tez edge, as its output and input see it: the shuffle id (from the DAG
 * and the edge's ordinal, which {@link ScacheDagRewrite} or {@link ScacheTezDag} writes into both
 * payloads) and the stage of the consumer vertex, which every input edge of that vertex shares.
 */
record EdgeShuffle(int shuffleId, int stageId) {

  static EdgeShuffle of(Configuration conf, int dagId) throws IOException {
    int edge = conf.getInt(TezScacheSettings.EDGE_ORDINAL, -1);
    int stage = conf.getInt(TezScacheSettings.STAGE_ORDINAL, -1);
    if (edge < 0 || stage < 0) {
      throw new IOException("the edge has SCache enabled but no " + TezScacheSettings.EDGE_ORDINAL + "/"
          + TezScacheSettings.STAGE_ORDINAL + " in its payload; SCache edges are made by ScacheDagScheduler or "
          + "ScacheTezDag");
    }
    return new EdgeShuffle(TezScacheSettings.shuffleId(dagId, edge), TezScacheSettings.stageId(dagId, stage));
  }

  ShuffleHints hints() {
    return ShuffleHints.NONE.inStage(stageId);
  }

  PartitionerKind partitionerKind(Configuration conf) {
    String name = conf.get(TezRuntimeConfiguration.TEZ_RUNTIME_PARTITIONER_CLASS, "");
    return name.isEmpty() || name.endsWith(".HashPartitioner") ? PartitionerKind.HASH : PartitionerKind.CUSTOM;
  }
}
