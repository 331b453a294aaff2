package org.scache.tez;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.tez.dag.api.EdgeManagerPluginDescriptor;
import org.apache.tez.dag.api.EdgeProperty;
import org.apache.tez.dag.api.InputDescriptor;
import org.apache.tez.dag.api.OutputDescriptor;
import org.apache.tez.dag.library.vertexmanager.ShuffleVertexManager;
import org.apache.tez.runtime.library.api.TezRuntimeConfiguration;
import org.apache.tez.runtime.library.cartesianproduct.CartesianProductEdgeManager;
import org.apache.tez.runtime.library.conf.OrderedPartitionedKVEdgeConfig;
import org.apache.tez.runtime.library.conf.UnorderedKVEdgeConfig;
import org.apache.tez.runtime.library.conf.UnorderedPartitionedKVEdgeConfig;
import org.apache.tez.runtime.library.partitioner.HashPartitioner;
import org.junit.jupiter.api.Test;

/** Which edges the configuration switch puts on SCache, with which classes, and why it leaves the others. */
class EdgeVerdictTest {
  private static final EdgeVerdict.ConsumerManager DEFAULT = EdgeVerdict.ConsumerManager.tezShuffle();

  private static OrderedPartitionedKVEdgeConfig.Builder ordered() {
    return OrderedPartitionedKVEdgeConfig.newBuilder(Text.class.getName(), IntWritable.class.getName(),
        HashPartitioner.class.getName());
  }

  private static EdgeProperty unordered() {
    return UnorderedPartitionedKVEdgeConfig.newBuilder(Text.class.getName(), IntWritable.class.getName(),
        HashPartitioner.class.getName()).build().createDefaultEdgeProperty();
  }

  @Test
  void orderedScatterGather_getsScacheOrderedOutputAndInput() {
    EdgeVerdict v = EdgeVerdict.of(ordered().build().createDefaultEdgeProperty(), DEFAULT);
    assertTrue(v.scache(), v.reason());
    assertEquals(ScacheOrderedPartitionedKVOutput.class.getName(), v.output());
    assertEquals(ScacheOrderedGroupedKVInput.class.getName(), v.input());
  }

  @Test
  void orderedScatterGatherWithLegacyInput_getsTheLegacyScacheInputReduceProcessorTakes() {
    EdgeVerdict v = EdgeVerdict.of(ordered().configureInput().useLegacyInput().done().build()
        .createDefaultEdgeProperty(), DEFAULT);
    assertTrue(v.scache(), v.reason());
    assertEquals(ScacheOrderedGroupedInputLegacy.class.getName(), v.input());
    assertTrue(org.apache.tez.runtime.library.input.OrderedGroupedInputLegacy.class
        .isAssignableFrom(ScacheOrderedGroupedInputLegacy.class));
  }

  @Test
  void scachePayload_keepsTezsEdgeSettingsCombinerIncluded_andAddsTheSwitchScacheKeysAndNumbers() {
    EdgeProperty p = ordered().setAdditionalConfiguration(TezRuntimeConfiguration.TEZ_RUNTIME_COMBINER_CLASS,
        "com.example.SumCombiner").setCompression(true, "org.apache.hadoop.io.compress.DefaultCodec", null)
        .build().createDefaultEdgeProperty();
    Configuration dagConf = new Configuration(false);
    dagConf.set("scache.client.master.address", "m:17010");
    dagConf.set("tez.runtime.io.sort.mb", "1");
    Configuration out = ScachePayloads.decode(ScachePayloads.edge(p.getEdgeSource().getUserPayload(), dagConf, 3, 1));
    assertEquals("com.example.SumCombiner", out.get(TezRuntimeConfiguration.TEZ_RUNTIME_COMBINER_CLASS));
    assertTrue(out.getBoolean(TezRuntimeConfiguration.TEZ_RUNTIME_COMPRESS, false));
    assertEquals(Text.class.getName(), out.get(TezRuntimeConfiguration.TEZ_RUNTIME_KEY_CLASS));
    assertEquals("m:17010", out.get("scache.client.master.address"));
    assertTrue(TezScacheSettings.enabled(out));
    assertEquals(3, out.getInt(TezScacheSettings.EDGE_ORDINAL, -1));
    assertEquals(1, out.getInt(TezScacheSettings.STAGE_ORDINAL, -1));
    assertEquals(null, out.get("tez.runtime.io.sort.mb"), "only the scache.* keys of the DAG are copied");
  }

  @Test
  void unorderedScatterGather_getsScacheUnorderedOutputAndInput() {
    EdgeVerdict v = EdgeVerdict.of(unordered(), DEFAULT);
    assertTrue(v.scache(), v.reason());
    assertEquals(ScacheUnorderedPartitionedKVOutput.class.getName(), v.output());
    assertEquals(ScacheUnorderedKVInput.class.getName(), v.input());
  }

  @Test
  void broadcastOneToOneAndCustomEdges_stayOnTez_withTheirReason() {
    UnorderedKVEdgeConfig kv = UnorderedKVEdgeConfig.newBuilder(Text.class.getName(), IntWritable.class.getName())
        .build();
    EdgeVerdict broadcast = EdgeVerdict.of(kv.createDefaultBroadcastEdgeProperty(), DEFAULT);
    assertFalse(broadcast.scache());
    assertTrue(broadcast.reason().startsWith("broadcast edge"), broadcast.reason());
    EdgeVerdict oneToOne = EdgeVerdict.of(kv.createDefaultOneToOneEdgeProperty(), DEFAULT);
    assertFalse(oneToOne.scache());
    assertTrue(oneToOne.reason().startsWith("one-to-one edge"), oneToOne.reason());
    EdgeVerdict custom = EdgeVerdict.of(kv.createDefaultCustomEdgeProperty(
        EdgeManagerPluginDescriptor.create(CartesianProductEdgeManager.class.getName())), DEFAULT);
    assertFalse(custom.scache());
    assertTrue(custom.reason().contains("custom edge (edge manager " + CartesianProductEdgeManager.class.getName()),
        custom.reason());
  }

  @Test
  void consumerWithItsOwnVertexManager_keepsItAndTezShuffle_butTezsShuffleVertexManagerIsWrapped() {
    EdgeProperty p = ordered().build().createDefaultEdgeProperty();
    EdgeVerdict own = EdgeVerdict.of(p, EdgeVerdict.ConsumerManager.user("com.example.MyVertexManager"));
    assertFalse(own.scache());
    assertTrue(own.reason().contains("own vertex manager com.example.MyVertexManager"), own.reason());
    assertTrue(EdgeVerdict.of(p, EdgeVerdict.ConsumerManager.user(ShuffleVertexManager.class.getName())).scache());
    EdgeVerdict oneToOneSibling = EdgeVerdict.of(p, EdgeVerdict.ConsumerManager.tezOther("InputReadyVertexManager"));
    assertFalse(oneToOneSibling.scache());
    assertEquals("InputReadyVertexManager", oneToOneSibling.reason());
  }

  @Test
  void otherOutputsInputsSourcesAndScheduling_stayOnTez() {
    EdgeProperty tez = ordered().build().createDefaultEdgeProperty();
    EdgeProperty ownOutput = EdgeProperty.create(EdgeProperty.DataMovementType.SCATTER_GATHER,
        EdgeProperty.DataSourceType.PERSISTED, EdgeProperty.SchedulingType.SEQUENTIAL,
        OutputDescriptor.create("com.example.MyOutput"), tez.getEdgeDestination());
    assertTrue(EdgeVerdict.of(ownOutput, DEFAULT).reason().startsWith("output com.example.MyOutput"));
    EdgeProperty mixed = EdgeProperty.create(EdgeProperty.DataMovementType.SCATTER_GATHER,
        EdgeProperty.DataSourceType.PERSISTED, EdgeProperty.SchedulingType.SEQUENTIAL, tez.getEdgeSource(),
        InputDescriptor.create(unordered().getEdgeDestination().getClassName()));
    assertTrue(EdgeVerdict.of(mixed, DEFAULT).reason().startsWith("input "), EdgeVerdict.of(mixed, DEFAULT).reason());
    EdgeProperty ephemeral = EdgeProperty.create(EdgeProperty.DataMovementType.SCATTER_GATHER,
        EdgeProperty.DataSourceType.EPHEMERAL, EdgeProperty.SchedulingType.CONCURRENT, tez.getEdgeSource(),
        tez.getEdgeDestination());
    assertFalse(EdgeVerdict.of(ephemeral, DEFAULT).scache());
  }

  @Test
  void scacheClasses_areRecognised_soDagsBuiltWithScacheTezDagAreKeptAsBuilt() {
    assertTrue(EdgeVerdict.isScacheClass(ScacheOrderedGroupedKVInput.class.getName()));
    assertTrue(EdgeVerdict.isScacheClass(ScacheUnorderedPartitionedKVOutput.class.getName()));
    assertFalse(EdgeVerdict.isScacheClass(org.apache.tez.runtime.library.input.OrderedGroupedKVInput.class
        .getName()));
  }
}
