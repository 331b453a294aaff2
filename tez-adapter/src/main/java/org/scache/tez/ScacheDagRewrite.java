package org.scache.tez;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.tez.dag.api.EdgeProperty;
import org.apache.tez.dag.api.InputDescriptor;
import org.apache.tez.dag.api.OutputDescriptor;
import org.apache.tez.dag.app.dag.DAG;
import org.apache.tez.dag.app.dag.Vertex;
import org.apache.tez.dag.app.dag.impl.AMUserCodeException;
import org.apache.tez.dag.app.dag.impl.Edge;
import org.scache.client.MasterCheck;
import org.scache.client.ShuffleRoom;
import org.scache.common.config.ScacheConf;
import org.scache.common.protocol.BlockRoom;
import org.scache.yarn.YarnOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configuration switch in the application master: when a DAG is initialized, and before any of
 * its vertices is, it replaces Tez's output and input of every edge SCache can serve by SCache's
 * (keeping Tez's payload: key and value classes, comparator, partitioner, combiner, compression) and
 * gives each consumer vertex of such an edge SCache's vertex manager. Every other edge keeps Tez's
 * shuffle. It logs once per DAG what it decided, and once per edge whether the edge goes through
 * SCache and why not.
 */
final class ScacheDagRewrite {
  private static final Logger LOG = LoggerFactory.getLogger(ScacheDagRewrite.class);

  /** One edge of the DAG: its producer and consumer vertices, Tez's edge, the verdict, and how it was submitted. */
  record PlannedEdge(Vertex from, Vertex to, Edge edge, EdgeVerdict verdict, String describe) {
    PlannedEdge(Vertex from, Vertex to, Edge edge, EdgeVerdict verdict) {
      this(from, to, edge, verdict, from.getName() + " -> " + to.getName() + " ("
          + edge.getEdgeProperty().getDataMovementType() + ", "
          + simple(edge.getEdgeProperty().getEdgeSource().getClassName()) + " -> "
          + simple(edge.getEdgeProperty().getEdgeDestination().getClassName()) + ")");
    }
  }

  /**
   * What the rewrite decided for the DAG: its edges through SCache and on Tez's shuffle, and whether SCache was
   * unusable; {@link #NOT_SWITCHED} when the switch is off.
   */
  record Outcome(int throughScache, int onTez, boolean scacheUnusable) {
    static final Outcome NOT_SWITCHED = new Outcome(0, 0, false);
  }

  private final DAG dag;
  private final Configuration dagConf;
  private final String name;

  ScacheDagRewrite(DAG dag, Configuration dagConf) {
    this.dag = dag;
    this.dagConf = dagConf;
    this.name = "DAG " + dag.getName() + " [" + dag.getID() + "]";
  }

  /** Decides and applies; on anything unexpected the DAG keeps Tez's shuffle where it has not been changed. */
  Outcome apply() throws AMUserCodeException {
    if (!TezScacheSettings.enabled(dagConf)) {
      LOG.info("SCache: {} runs on Tez's own shuffle: {} is false", name, TezScacheOptions.ENABLED.key());
      return Outcome.NOT_SWITCHED;
    }
    List<PlannedEdge> edges = plan();
    long built = edges.stream().filter(e -> EdgeVerdict.isScacheClass(e.edge.getEdgeProperty().getEdgeSource()
        .getClassName()) || EdgeVerdict.isScacheClass(e.edge.getEdgeProperty().getEdgeDestination().getClassName()))
        .count();
    if (built > 0) {
      LOG.info("SCache: {} was built with ScacheTezDag; its edges are kept as built", name);
      return new Outcome((int) built, edges.size() - (int) built, false);
    }
    if (edges.isEmpty()) {
      LOG.info("SCache: {} has no edges; nothing to shuffle", name);
      return Outcome.NOT_SWITCHED;
    }
    long candidates = edges.stream().filter(e -> e.verdict.scache()).count();
    if (candidates == 0) {
      LOG.warn("SCache: {} has no edge SCache can serve; it runs on Tez's own shuffle", name);
      logEdges(edges, Map.of());
      return new Outcome(0, edges.size(), false);
    }
    Optional<String> unusable = ConsumerManagers.unavailable(edges.get(0).to);
    if (unusable.isEmpty()) {
      ScacheConf scache = TezScacheSettings.scacheConf(dagConf);
      MasterCheck.Result check = MasterCheck.run(scache, scache.get(YarnOptions.SUBMIT_CHECK_TIMEOUT));
      unusable = check.problem();
      if (unusable.isEmpty() && check.room().isPresent()) {
        edges = withinRoom(edges, check.room().get());
      }
    }
    if (unusable.isPresent()) {
      LOG.warn("SCache is not usable ({}); {} runs on Tez's own shuffle", unusable.get(), name);
      logEdges(edges, Map.of());
      return new Outcome(0, edges.size(), true);
    }
    Map<PlannedEdge, Integer> ordinals = switchEdges(edges);
    LOG.info("SCache: {}: {} of its {} edges go through SCache", name, ordinals.size(), edges.size());
    logEdges(edges, ordinals);
    return new Outcome(ordinals.size(), edges.size() - ordinals.size(), false);
  }

  /** Every edge of the DAG, consumers and producers in vertex order, with its verdict. */
  List<PlannedEdge> plan() {
    List<PlannedEdge> out = new ArrayList<>();
    List<Vertex> vertices = new ArrayList<>(dag.getVertices().values());
    vertices.sort(Comparator.comparing(Vertex::getVertexId));
    for (Vertex to : vertices) {
      EdgeVerdict.ConsumerManager manager = ConsumerManagers.of(to);
      List<Map.Entry<Vertex, Edge>> inputs = new ArrayList<>(to.getInputVertices().entrySet());
      inputs.sort(Comparator.comparing(e -> e.getKey().getVertexId()));
      for (Map.Entry<Vertex, Edge> in : inputs) {
        EdgeVerdict verdict = EdgeVerdict.of(in.getValue().getEdgeProperty(), manager);
        out.add(new PlannedEdge(in.getKey(), to, in.getValue(), verdict));
      }
    }
    int scache = 0;
    for (int i = 0; i < out.size(); i++) {
      PlannedEdge e = out.get(i);
      if (e.verdict.scache() && ++scache > TezScacheSettings.MAX_EDGES_PER_DAG) {
        out.set(i, new PlannedEdge(e.from, e.to, e.edge, EdgeVerdict.tez("the DAG has more than "
            + TezScacheSettings.MAX_EDGES_PER_DAG + " edges SCache could serve, this one is beyond them")));
      }
    }
    return out;
  }

  /**
   * The edges, those whose blocks (a block per producer and consumer task) would not fit in what the live workers
   * hold for one user, after the edges before them, kept on Tez's shuffle ({@link ShuffleRoom}). An edge whose
   * producers' or consumers' number is decided at run time (a vertex reading splits) cannot be judged here: it is
   * kept as planned, its room taken first, counting at least one task for each unknown side; its producers find
   * room on any worker, or fail.
   */
  private static List<PlannedEdge> withinRoom(List<PlannedEdge> edges, BlockRoom room) {
    long left = room.forOneOwner();
    for (PlannedEdge e : edges) {
      if (e.verdict.scache() && !parallelismKnown(e)) {
        left -= (long) Math.max(1, e.from.getTotalTasks()) * Math.max(1, e.to.getTotalTasks());
      }
    }
    List<PlannedEdge> out = new ArrayList<>(edges.size());
    for (PlannedEdge e : edges) {
      if (!e.verdict.scache() || !parallelismKnown(e)) {
        out.add(e);
        continue;
      }
      int maps = e.from.getTotalTasks();
      int reduces = e.to.getTotalTasks();
      Optional<String> tooWide = ShuffleRoom.problem(room, left, maps, reduces);
      if (tooWide.isPresent()) {
        out.add(new PlannedEdge(e.from, e.to, e.edge,
            EdgeVerdict.tez("it does not fit in SCache with the DAG's other edges: " + tooWide.get())));
      } else {
        left -= (long) maps * reduces;
        out.add(e);
      }
    }
    return out;
  }

  private static boolean parallelismKnown(PlannedEdge e) {
    return e.from.getTotalTasks() >= 0 && e.to.getTotalTasks() >= 0;
  }

  /** Gives the SCache edges their ordinals, SCache's outputs and inputs, and their consumers SCache's manager. */
  private Map<PlannedEdge, Integer> switchEdges(List<PlannedEdge> edges) throws AMUserCodeException {
    Map<PlannedEdge, Integer> ordinals = new LinkedHashMap<>();
    Map<Vertex, Integer> stages = new LinkedHashMap<>();
    Map<Vertex, Map<String, Integer>> sources = new LinkedHashMap<>();
    for (PlannedEdge e : edges) {
      if (e.verdict.scache()) {
        int ordinal = ordinals.size();
        ordinals.put(e, ordinal);
        stages.computeIfAbsent(e.to, v -> stages.size());
        sources.computeIfAbsent(e.to, v -> new LinkedHashMap<>()).put(e.from.getName(), ordinal);
      }
    }
    for (Map.Entry<Vertex, Map<String, Integer>> consumer : sources.entrySet()) {
      ConsumerManagers.give(consumer.getKey(),
          ConsumerManagers.scacheManager(consumer.getKey(), dagConf, consumer.getValue()));
    }
    for (Map.Entry<PlannedEdge, Integer> s : ordinals.entrySet()) {
      PlannedEdge e = s.getKey();
      EdgeProperty tez = e.edge.getEdgeProperty();
      int stage = stages.get(e.to);
      OutputDescriptor output = OutputDescriptor.create(e.verdict.output())
          .setUserPayload(ScachePayloads.edge(tez.getEdgeSource().getUserPayload(), dagConf, s.getValue(), stage))
          .setHistoryText(tez.getEdgeSource().getHistoryText());
      // every SCache input of the vertex knows its siblings, so a task judges its placement as the manager made it
      InputDescriptor input = InputDescriptor.create(e.verdict.input())
          .setUserPayload(ScachePayloads.withSources(ScachePayloads.edge(tez.getEdgeDestination().getUserPayload(),
              dagConf, s.getValue(), stage), sources.get(e.to)))
          .setHistoryText(tez.getEdgeDestination().getHistoryText());
      e.edge.setEdgeProperty(EdgeProperty.create(tez.getDataMovementType(), tez.getDataSourceType(),
          tez.getSchedulingType(), output, input));
    }
    return ordinals;
  }

  private void logEdges(List<PlannedEdge> edges, Map<PlannedEdge, Integer> ordinals) {
    int dagId = dag.getID().getId();
    for (PlannedEdge e : edges) {
      Integer ordinal = ordinals.get(e);
      if (ordinal != null) {
        LOG.info("SCache: {} edge {} goes through SCache as shuffle {}: {}", name, e.describe,
            TezScacheSettings.shuffleId(dagId, ordinal), e.verdict.reason());
      } else if (e.verdict.scache()) {
        LOG.warn("SCache: {} edge {} stays on Tez's shuffle: SCache is not used for this DAG", name, e.describe);
      } else if (byDesign(e)) {
        LOG.info("SCache: {} edge {} stays on Tez's shuffle: {}", name, e.describe, e.verdict.reason());
      } else {
        LOG.warn("SCache: {} edge {} stays on Tez's shuffle: {}", name, e.describe, e.verdict.reason());
      }
    }
  }

  /** Broadcast and one-to-one edges move no partitions: that they keep Tez's shuffle is no surprise. */
  private static boolean byDesign(PlannedEdge e) {
    EdgeProperty.DataMovementType type = e.edge.getEdgeProperty().getDataMovementType();
    return type == EdgeProperty.DataMovementType.BROADCAST || type == EdgeProperty.DataMovementType.ONE_TO_ONE;
  }

  private static String simple(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }
}
