package org.scache.tez;

import java.lang.reflect.Field;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.tez.dag.api.DagTypeConverters;
import org.apache.tez.dag.api.EdgeProperty.DataMovementType;
import org.apache.tez.dag.api.VertexManagerPluginDescriptor;
import org.apache.tez.dag.api.records.DAGProtos.RootInputLeafOutputProto;
import org.apache.tez.dag.api.records.DAGProtos.VertexPlan;
import org.apache.tez.dag.app.dag.Vertex;
import org.apache.tez.dag.app.dag.impl.Edge;
import org.apache.tez.dag.library.vertexmanager.ShuffleVertexManager;

/**
 * The vertex managers of consumer vertices in the application master: what manager a vertex will get
 * (the one its author set, or the one Tez picks from its inputs, as {@code VertexImpl.assignVertexManager}
 * does), and giving a vertex SCache's manager before the vertex is initialized. Tez picks a vertex's
 * manager from its plan when the vertex initializes, and offers no setter; the plan is replaced with a
 * copy that names SCache's manager.
 */
final class ConsumerManagers {
  private static final Field PLAN = planField();

  private ConsumerManagers() {}

  /** Whether the application master's vertices can be given SCache's manager (empty: why not). */
  static Optional<String> unavailable(Vertex anyVertex) {
    if (PLAN == null || !PLAN.getDeclaringClass().isInstance(anyVertex)) {
      return Optional.of("the application master's vertices (" + anyVertex.getClass().getName()
          + ") are not Tez 0.10's VertexImpl, whose plan names the vertex manager");
    }
    return Optional.empty();
  }

  /** What the manager of {@code vertex} will be, from its plan and its input edges. */
  static EdgeVerdict.ConsumerManager of(Vertex vertex) {
    VertexPlan plan = vertex.getVertexPlan();
    if (plan.hasVertexManagerPlugin()) {
      return EdgeVerdict.ConsumerManager.user(plan.getVertexManagerPlugin().getClassName());
    }
    if (plan.getInputsList().stream().anyMatch(RootInputLeafOutputProto::hasControllerDescriptor)) {
      return EdgeVerdict.ConsumerManager.tezOther("the consumer vertex has an input initializer, so Tez gives it "
          + "RootInputVertexManager");
    }
    boolean oneToOne = false;
    boolean custom = false;
    for (Edge e : vertex.getInputVertices().values()) {
      DataMovementType type = e.getEdgeProperty().getDataMovementType();
      oneToOne |= type == DataMovementType.ONE_TO_ONE;
      custom |= type == DataMovementType.CUSTOM;
    }
    if (custom) {
      return EdgeVerdict.ConsumerManager.tezOther("the consumer vertex also has a custom input edge, so Tez gives "
          + "it ImmediateStartVertexManager");
    }
    if (oneToOne) {
      return EdgeVerdict.ConsumerManager.tezOther("the consumer vertex also has a one-to-one input edge, so Tez "
          + "gives it InputReadyVertexManager");
    }
    return EdgeVerdict.ConsumerManager.tezShuffle();
  }

  /**
   * The descriptor of SCache's manager for {@code vertex}: its author's ShuffleVertexManager settings,
   * or those Tez's ShuffleVertexManager would take from the vertex's configuration, plus the
   * SCache keys and the edge number of each SCache input ({@code sources}, by source vertex).
   */
  static VertexManagerPluginDescriptor scacheManager(Vertex vertex, Configuration dagConf,
      Map<String, Integer> sources) {
    VertexPlan plan = vertex.getVertexPlan();
    VertexManagerPluginDescriptor tez = plan.hasVertexManagerPlugin()
        ? DagTypeConverters.convertVertexManagerPluginDescriptorFromDAGPlan(plan.getVertexManagerPlugin())
        : ShuffleVertexManager.createConfigBuilder(vertex.getConf()).build();
    Configuration payload = ScachePayloads.decode(tez.getUserPayload());
    ScachePayloads.copyScacheKeys(dagConf, payload);
    ScachePayloads.withSources(payload, sources);
    return VertexManagerPluginDescriptor.create(ScacheShuffleVertexManager.class.getName())
        .setUserPayload(ScachePayloads.encode(payload));
  }

  /** Makes {@code manager} the manager {@code vertex} gets when it initializes. */
  static void give(Vertex vertex, VertexManagerPluginDescriptor manager) {
    VertexPlan plan = vertex.getVertexPlan().toBuilder()
        .setVertexManagerPlugin(DagTypeConverters.convertToDAGPlan(manager)).build();
    try {
      PLAN.set(vertex, plan);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot set the vertex manager of " + vertex.getLogIdentifier(), e);
    }
  }

  private static Field planField() {
    try {
      Field f = Class.forName("org.apache.tez.dag.app.dag.impl.VertexImpl").getDeclaredField("vertexPlan");
      f.setAccessible(true);
      return f;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
