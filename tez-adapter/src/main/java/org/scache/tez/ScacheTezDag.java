package org.scache.tez;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.tez.dag.api.DAG;
import org.apache.tez.dag.api.Edge;
import org.apache.tez.dag.api.EdgeProperty;
import org.apache.tez.dag.api.InputDescriptor;
import org.apache.tez.dag.api.OutputDescriptor;
import org.apache.tez.dag.api.UserPayload;
import org.apache.tez.dag.api.Vertex;
import org.apache.tez.dag.api.VertexManagerPluginDescriptor;
import org.apache.tez.dag.library.vertexmanager.ShuffleVertexManager;
import org.apache.tez.runtime.library.conf.OrderedPartitionedKVEdgeConfig;
import org.apache.tez.runtime.library.conf.UnorderedPartitionedKVEdgeConfig;
import org.apache.tez.runtime.library.input.OrderedGroupedInputLegacy;
import org.scache.client.MasterCheck;
import org.scache.common.config.ScacheConf;
import org.scache.yarn.YarnOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DAG builder, for a program that chooses its SCache edges itself (the configuration switch,
 * {@link ScacheDagScheduler}, needs no program change and serves every edge it can). It remains
 * the way to SCache for a DAG the switch cannot take, one that runs another DAG scheduler
 * ({@code tez.am.dag.scheduler.class}), and for a program that wants only some of its edges on
 * SCache. It builds a DAG's scatter-gather edges so that they shuffle through SCache when
 * {@code scache.tez.shuffle.enabled} is true and SCache answers, and through Tez's own shuffle
 * otherwise. The check is made once, when the builder is created, so every edge and task of the
 * DAG agrees; when SCache is unreachable one warning says why and the DAG is built exactly as with
 * Tez's edge configs.
 *
 * <pre>
 * ScacheTezDag scache = ScacheTezDag.of(dag, tezConf);
 * scache.connect(tokenizer, summation, orderedEdgeConfig);   // or an UnorderedPartitionedKVEdgeConfig
 * </pre>
 *
 * The consumer vertex of every SCache edge gets {@link ScacheShuffleVertexManager}, configured from
 * the given configuration as Tez's ShuffleVertexManager would be (slow start, auto-parallelism).
 */
public final class ScacheTezDag {
  private static final Logger LOG = LoggerFactory.getLogger(ScacheTezDag.class);

  private final DAG dag;
  private final Configuration conf;
  private final boolean useScache;
  private int edges;
  private final Map<String, Integer> stages = new HashMap<>();
  private final Map<String, Map<String, Integer>> sourcesByConsumer = new LinkedHashMap<>();
  private final Map<String, List<InputDescriptor>> inputsByConsumer = new HashMap<>();

  /** A builder that uses SCache as {@code useScache} says, without asking the master (for tests). */
  ScacheTezDag(DAG dag, Configuration conf, boolean useScache) {
    this.dag = dag;
    this.conf = conf;
    this.useScache = useScache;
  }

  /** A builder for {@code dag}; asks the SCache master once whether it can serve when the switch is on. */
  public static ScacheTezDag of(DAG dag, Configuration conf) {
    if (!TezScacheSettings.enabled(conf)) {
      return new ScacheTezDag(dag, conf, false);
    }
    ScacheConf scache = TezScacheSettings.scacheConf(conf);
    Optional<String> problem = MasterCheck.run(scache, scache.get(YarnOptions.SUBMIT_CHECK_TIMEOUT)).problem();
    if (problem.isPresent()) {
      LOG.warn("SCache is not usable ({}); DAG {} runs on Tez's own shuffle", problem.get(), dag.getName());
      return new ScacheTezDag(dag, conf, false);
    }
    return new ScacheTezDag(dag, conf, true);
  }

  /** Whether this DAG's edges shuffle through SCache. */
  public boolean usesScache() {
    return useScache;
  }

  /**
   * Adds an ordered, partitioned edge (sorted and grouped by key at the consumer) from {@code from} to
   * {@code to}. An edge built with {@code useLegacyInput()} keeps a legacy input
   * ({@link ScacheOrderedGroupedInputLegacy}), which MapReduce's {@code ReduceProcessor} needs.
   */
  public ScacheTezDag connect(Vertex from, Vertex to, OrderedPartitionedKVEdgeConfig edge) {
    if (!useScache) {
      dag.addEdge(Edge.create(from, to, edge.createDefaultEdgeProperty()));
      return this;
    }
    Class<?> input = OrderedGroupedInputLegacy.class.getName().equals(edge.getInputClassName())
        ? ScacheOrderedGroupedInputLegacy.class : ScacheOrderedGroupedKVInput.class;
    return connectThroughScache(from, to, ScacheOrderedPartitionedKVOutput.class, edge.getOutputPayload(),
        input, edge.getInputPayload());
  }

  /** Adds an unordered,
      partitioned edge (records of a partition in no particular order) from {@code from} to {@code to}. */
  public ScacheTezDag connect(Vertex from, Vertex to, UnorderedPartitionedKVEdgeConfig edge) {
    if (!useScache) {
      dag.addEdge(Edge.create(from, to, edge.createDefaultEdgeProperty()));
      return this;
    }
    return connectThroughScache(from, to, ScacheUnorderedPartitionedKVOutput.class, edge.getOutputPayload(),
        ScacheUnorderedKVInput.class, edge.getInputPayload());
  }

  private ScacheTezDag connectThroughScache(Vertex from, Vertex to, Class<?> output, UserPayload outputPayload,
      Class<?> inputClass, UserPayload inputPayload) {
    int ordinal = nextEdge(from, to);
    int stage = stages.get(to.getName());
    InputDescriptor input = InputDescriptor.create(inputClass.getName())
        .setUserPayload(withScache(inputPayload, ordinal, stage));
    EdgeProperty property = EdgeProperty.create(EdgeProperty.DataMovementType.SCATTER_GATHER,
        EdgeProperty.DataSourceType.PERSISTED, EdgeProperty.SchedulingType.SEQUENTIAL,
        OutputDescriptor.create(output.getName()).setUserPayload(withScache(outputPayload, ordinal, stage)), input);
    dag.addEdge(Edge.create(from, to, property));
    inputsByConsumer.computeIfAbsent(to.getName(), n -> new ArrayList<>()).add(input);
    placeConsumer(to);
    return this;
  }

  private int nextEdge(Vertex from, Vertex to) {
    int ordinal = edges++;
    stages.computeIfAbsent(to.getName(), n -> stages.size());
    sourcesByConsumer.computeIfAbsent(to.getName(), n -> new LinkedHashMap<>()).put(from.getName(), ordinal);
    return ordinal;
  }

  /** Gives {@code consumer} the placing vertex manager, with the edge ordinals of all its SCache inputs so far. */
  private void placeConsumer(Vertex consumer) {
    VertexManagerPluginDescriptor tezManager = ShuffleVertexManager.createConfigBuilder(conf).build();
    Configuration payload = ScachePayloads.decode(tezManager.getUserPayload());
    ScachePayloads.copyScacheKeys(conf, payload);
    Map<String, Integer> sources = sourcesByConsumer.get(consumer.getName());
    ScachePayloads.withSources(payload, sources);
    consumer.setVertexManagerPlugin(VertexManagerPluginDescriptor.create(ScacheShuffleVertexManager.class.getName())
        .setUserPayload(ScachePayloads.encode(payload)));
    // every SCache input of the vertex knows its siblings, so a task judges its placement as the manager made it
    for (InputDescriptor input : inputsByConsumer.get(consumer.getName())) {
      input.setUserPayload(ScachePayloads.withSources(input.getUserPayload(), sources));
    }
  }

  private UserPayload withScache(UserPayload edgePayload, int ordinal, int stage) {
    return ScachePayloads.edge(edgePayload, conf, ordinal, stage);
  }
}
