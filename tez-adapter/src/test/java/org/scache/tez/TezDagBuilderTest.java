package org.scache.tez;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.tez.dag.api.DAG;
import org.apache.tez.dag.api.ProcessorDescriptor;
import org.apache.tez.dag.api.TezConfiguration;
import org.apache.tez.dag.api.Vertex;
import org.apache.tez.dag.api.records.DAGProtos.DAGPlan;
import org.apache.tez.dag.api.records.DAGProtos.EdgePlan;
import org.apache.tez.runtime.library.conf.OrderedPartitionedKVEdgeConfig;
import org.apache.tez.runtime.library.input.OrderedGroupedInputLegacy;
import org.apache.tez.runtime.library.partitioner.HashPartitioner;
import org.junit.jupiter.api.Test;

/** Which input ScacheTezDag puts on an ordered edge, so that the consumer's processor accepts it. */
class TezDagBuilderTest {

  private static OrderedPartitionedKVEdgeConfig.Builder ordered() {
    return OrderedPartitionedKVEdgeConfig.newBuilder(Text.class.getName(), IntWritable.class.getName(),
        HashPartitioner.class.getName());
  }

  /** The plan of a two-vertex DAG whose one edge {@code scache} built from {@code config}. */
  private static EdgePlan connectOne(boolean scache, OrderedPartitionedKVEdgeConfig config) {
    DAG dag = DAG.create("builder");
    Vertex map = Vertex.create("map", ProcessorDescriptor.create("MapProcessor"), 2);
    Vertex reduce = Vertex.create("reduce", ProcessorDescriptor.create("ReduceProcessor"), 2);
    dag.addVertex(map).addVertex(reduce);
    new ScacheTezDag(dag, new Configuration(false), scache).connect(map, reduce, config);
    DAGPlan plan = dag.createDag(new TezConfiguration(false), null, null, null, true);
    assertEquals(1, plan.getEdgeCount());
    return plan.getEdge(0);
  }

  @Test
  void connect_legacyInputEdge_keepsALegacyInput_soReduceProcessorAcceptsIt() {
    EdgePlan edge = connectOne(true, ordered().configureInput().useLegacyInput().done().build());
    assertEquals(ScacheOrderedPartitionedKVOutput.class.getName(), edge.getEdgeSource().getClassName());
    assertEquals(ScacheOrderedGroupedInputLegacy.class.getName(), edge.getEdgeDestination().getClassName());
    assertEquals(OrderedGroupedInputLegacy.class, ScacheOrderedGroupedInputLegacy.class.getSuperclass());
  }

  @Test
  void connect_orderedEdge_getsTheGroupedInput() {
    EdgePlan edge = connectOne(true, ordered().build());
    assertEquals(ScacheOrderedGroupedKVInput.class.getName(), edge.getEdgeDestination().getClassName());
  }

  @Test
  void connect_withoutScache_addsTezsOwnEdge() {
    EdgePlan edge = connectOne(false, ordered().configureInput().useLegacyInput().done().build());
    assertEquals(OrderedGroupedInputLegacy.class.getName(), edge.getEdgeDestination().getClassName());
  }
}
