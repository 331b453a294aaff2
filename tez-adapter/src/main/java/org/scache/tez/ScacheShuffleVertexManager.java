package org.scache.tez;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.tez.common.TezUtils;
import org.apache.tez.common.security.JobTokenIdentifier;
import org.apache.tez.common.security.TokenCache;
import org.apache.tez.dag.api.EdgeProperty;
import org.apache.tez.dag.api.InputDescriptor;
import org.apache.tez.dag.api.TaskLocationHint;
import org.apache.tez.dag.api.VertexLocationHint;
import org.apache.tez.dag.api.VertexManagerPlugin;
import org.apache.tez.dag.api.VertexManagerPluginContext;
import org.apache.tez.dag.api.event.VertexState;
import org.apache.tez.dag.api.event.VertexStateUpdate;
import org.apache.tez.dag.library.vertexmanager.ShuffleVertexManager;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.InputSpecUpdate;
import org.apache.tez.runtime.api.TaskAttemptIdentifier;
import org.apache.tez.runtime.api.events.VertexManagerEvent;
import org.scache.client.ScacheClient;
import org.scache.common.ScacheException;
import org.scache.common.WorkerInfo;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.network.ClientTransport;
import org.scache.common.shuffle.ShufflePlacement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Vertex manager of a vertex whose inputs shuffle through SCache. Tez's ShuffleVertexManager still
 * decides when tasks start (slow start) and how many there are (auto-parallelism); this plugin sits
 * between it and the framework, and gives every task it schedules a TaskLocationHint for the worker
 * the SCache master pre-scheduled the task's partitions on (their input is prefetched there). Tasks
 * that become due before the master has placed the shuffle are held until it has, or until every
 * producer has finished and {@code scache.tez.placement.schedule.wait} has passed (then they run
 * without a hint and read their input remotely through their own worker).
 *
 * <p>A worker is named by host when it is the only worker of its host (a real cluster); when several
 * NodeManagers share a host (a mini cluster), host hints cannot tell them apart, and the hint asks
 * for the container of a producer task that ran on that worker (Tez's task-affinity hint), which
 * Tez honours when that container is held idle for reuse.
 */
public class ScacheShuffleVertexManager extends VertexManagerPlugin {
  private static final Logger LOG = LoggerFactory.getLogger(ScacheShuffleVertexManager.class);

  private final PlacingContext placing;
  private final ShuffleVertexManager tez;
  private boolean useScache;
  private Configuration conf;
  /** SCache source vertices by name, with the edge ordinal of their shuffle. */
  private final Map<String, Integer> sourceEdges = new LinkedHashMap<>();
  private final Map<String, Integer> completedSources = new HashMap<>();
  /** Final producer attempts by worker address: (vertex, task, container), for task-affinity hints. */
  private final Map<String, List<ProducerTask>> producersByWorker = new HashMap<>();
  private final Map<String, Integer> partitionsBySource = new HashMap<>();
  private int dagId = -1;
  private ScacheClient client;
  private List<WorkerInfo> liveWorkers = List.of();

  record ProducerTask(String vertex, int task, int attempt, String container) {}

  public ScacheShuffleVertexManager(VertexManagerPluginContext context) {
    super(context);
    placing = new PlacingContext(context);
    tez = new ShuffleVertexManager(placing);
  }

  @Override
  public void initialize() throws Exception {
    conf = TezUtils.createConfFromUserPayload(getContext().getUserPayload());
    useScache = TezScacheSettings.enabled(conf);
    for (Map.Entry<String, String> e : conf.getPropsWithPrefix(TezScacheSettings.SOURCE_EDGE_ORDINAL_PREFIX)
        .entrySet()) {
      sourceEdges.put(e.getKey(), Integer.parseInt(e.getValue()));
    }
    tez.initialize();
    if (useScache) {
      // once every consumer task has read its input, the vertex's shuffles are freed on every worker
      getContext().registerForVertexStateUpdates(getContext().getVertexName(), EnumSet.of(VertexState.SUCCEEDED));
    }
  }

  @Override
  public void onVertexStarted(List<TaskAttemptIdentifier> completions) throws Exception {
    for (TaskAttemptIdentifier a : completions) {
      noteCompletion(a);
    }
    tez.onVertexStarted(completions);
    placing.release(false);
  }

  @Override
  public void onSourceTaskCompleted(TaskAttemptIdentifier attempt) throws Exception {
    noteCompletion(attempt);
    tez.onSourceTaskCompleted(attempt);
    placing.release(false);
  }

  @Override
  public void onVertexManagerEventReceived(VertexManagerEvent event) throws Exception {
    Optional<ProducerReport> report = ProducerReport.decode(event.getUserPayload());
    if (report.isEmpty()) {
      tez.onVertexManagerEventReceived(event);
      return;
    }
    ProducerReport r = report.get();
    TaskAttemptIdentifier producer = event.getProducerAttemptIdentifier();
    String vertex = producer == null ? "" : producer.getTaskIdentifier().getVertexIdentifier().getName();
    if (producer != null) {
      dagId = producer.getTaskIdentifier().getVertexIdentifier().getDagIdentifier().getIdentifier();
    }
    partitionsBySource.put(vertex, r.partitions());
    List<ProducerTask> onWorker = producersByWorker.computeIfAbsent(r.worker(), w -> new ArrayList<>());
    onWorker.removeIf(p -> p.vertex().equals(vertex) && p.task() == r.mapId());
    onWorker.add(new ProducerTask(vertex, r.mapId(), r.attempt(), r.container()));
    placing.release(false);
  }

  @Override
  public void onRootVertexInitialized(String inputName, InputDescriptor inputDescriptor, List<Event> events)
      throws Exception {
    tez.onRootVertexInitialized(inputName, inputDescriptor, events);
  }

  @Override
  public void onVertexStateUpdated(VertexStateUpdate stateUpdate) throws Exception {
    if (stateUpdate.getVertexName().equals(getContext().getVertexName())) {
      if (stateUpdate.getVertexState() == VertexState.SUCCEEDED) {
        freeShuffles();
      }
      return;
    }
    tez.onVertexStateUpdated(stateUpdate);
    placing.release(false);
  }

  /**
   * Unregisters the vertex's input shuffles, which frees their blocks on every worker. Should a task
   * of this vertex run again later (its own output lost), its reads fail and become input read
   * errors, and Tez re-runs the producers, which put their output again.
   */
  private void freeShuffles() {
    if (dagId < 0) {
      return;
    }
    for (int edge : sourceEdges.values()) {
      int shuffle = TezScacheSettings.shuffleId(dagId, edge);
      try {
        client().unregisterShuffle(shuffle);
      } catch (ScacheException | IOException e) {
        LOG.warn("{}: could not free SCache shuffle {}; it is freed when the application ends: {}",
            getContext().getVertexName(), shuffle, e.getMessage());
      }
    }
  }

  private void noteCompletion(TaskAttemptIdentifier attempt) {
    dagId = attempt.getTaskIdentifier().getVertexIdentifier().getDagIdentifier().getIdentifier();
    completedSources.merge(attempt.getTaskIdentifier().getVertexIdentifier().getName(), 1, Integer::sum);
  }

  private boolean allSourcesDone() {
    for (String source : sourceEdges.keySet()) {
      if (completedSources.getOrDefault(source, 0) < getContext().getVertexNumTasks(source)) {
        return false;
      }
    }
    return true;
  }

  /** The master's placement of every SCache input shuffle of this vertex, when all are placed. */
  private Optional<List<ShufflePlacement>> schedules(Duration wait) {
    if (dagId < 0 || sourceEdges.isEmpty()) {
      return Optional.empty();
    }
    long deadline = System.nanoTime() + wait.toNanos();
    while (true) {
      try {
        ScacheClient c = client();
        List<ShufflePlacement> out = new ArrayList<>();
        // in edge order, as the consumer tasks vote
        for (int edge : new java.util.TreeSet<>(sourceEdges.values())) {
          out.add(c.getScheduleResult(TezScacheSettings.shuffleId(dagId, edge)));
        }
        if (liveWorkers.isEmpty()) {
          liveWorkers = c.workers();
        }
        return Optional.of(out);
      } catch (ScacheException | IOException e) {
        if (System.nanoTime() >= deadline) {
          LOG.debug("{}: SCache placement not available yet: {}", getContext().getVertexName(), e.getMessage());
          return Optional.empty();
        }
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.empty();
      }
    }
  }

  private ScacheClient client() throws IOException {
    if (client == null) {
      // a few calls, one at a time, from the application master's dispatcher: the blocking transport
      ScacheConf scache = TezScacheSettings.scacheConf(conf).with(ScacheOptions.CLIENT_RETRY_MAX, 1);
      client = ScacheClient.create(scache, applicationId(), amSecret(), ClientTransport.BLOCKING);
      client.registerApplication();
    }
    return client;
  }

  /** The application this application master runs, from its container id. */
  private static String applicationId() throws IOException {
    String container = System.getenv("CONTAINER_ID");
    if (container == null || container.isEmpty()) {
      throw new IOException("no CONTAINER_ID in the application master's environment");
    }
    return ContainerId.fromString(container).getApplicationAttemptId().getApplicationId().toString();
  }

  /** The password of the session's job token, which Tez's tasks also hold and sign their SCache requests with. */
  private static byte[] amSecret() throws IOException {
    Token<JobTokenIdentifier> token =
        TokenCache.getSessionToken(UserGroupInformation.getCurrentUser().getCredentials());
    if (token == null) {
      token = TokenCache.getSessionToken(UserGroupInformation.getLoginUser().getCredentials());
    }
    if (token == null) {
      throw new IOException("the application master has no session token");
    }
    return token.getPassword();
  }

  /** The partitions task {@code task} reads, after Tez's auto-parallelism grouped them into ranges. */
  private List<Integer> partitionsOf(int task) {
    int partitions = partitionsBySource.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    int tasks = getContext().getVertexNumTasks(getContext().getVertexName());
    if (partitions <= tasks || tasks <= 0) {
      return List.of(task);
    }
    int base = PartitionRanges.baseRange(partitions, tasks);
    int start = task * base;
    int end = task == tasks - 1 ? partitions : Math.min(partitions, start + base);
    List<Integer> out = new ArrayList<>();
    for (int p = start; p < end; p++) {
      out.add(p);
    }
    return out;
  }

  private TaskLocationHint hintFor(WorkerInfo worker, Map<String, Integer> affinityTurns) {
    long sameHost = liveWorkers.stream().filter(w -> w.host().equals(worker.host())).count();
    List<ProducerTask> producers = producersByWorker.getOrDefault(worker.address(),
        producersByWorker.getOrDefault(worker.workerId(), List.of()));
    if (sameHost <= 1 || producers.isEmpty()) {
      return TaskLocationHint.createTaskLocationHint(java.util.Set.of(worker.host()), null);
    }
    // distinct containers first, so that two consumers of one worker do not wait for the same container
    List<ProducerTask> distinct = new ArrayList<>();
    java.util.Set<String> containers = new java.util.HashSet<>();
    for (ProducerTask p : producers) {
      if (containers.add(p.container())) {
        distinct.add(p);
      }
    }
    int turn = affinityTurns.merge(worker.workerId(), 1, Integer::sum) - 1;
    ProducerTask p = distinct.get(turn % distinct.size());
    return TaskLocationHint.createTaskLocationHint(p.vertex(), p.task());
  }

  /**
   * The context Tez's ShuffleVertexManager sees: task scheduling goes through {@link #release}, which
   * adds the placement; everything else goes to the framework.
   */
  private final class PlacingContext extends DelegatingVertexManagerContext {
    private final List<ScheduleTaskRequest> held = new ArrayList<>();

    PlacingContext(VertexManagerPluginContext framework) {
      super(framework);
    }

    @Override
    public void scheduleTasks(List<ScheduleTaskRequest> tasks) {
      if (!useScache) {
        framework.scheduleTasks(tasks);
        return;
      }
      held.addAll(tasks);
      release(false);
    }

    @Override
    @Deprecated
    public void scheduleVertexTasks(List<TaskWithLocationHint> tasks) {
      List<ScheduleTaskRequest> requests = new ArrayList<>();
      for (TaskWithLocationHint t : tasks) {
        requests.add(ScheduleTaskRequest.create(t.getTaskIndex(), t.getTaskLocationHint()));
      }
      scheduleTasks(requests);
    }

    @Override
    public void reconfigureVertex(int parallelism, VertexLocationHint locationHint,
        Map<String, EdgeProperty> sourceEdgeProperties) {
      LOG.info("{}: Tez sets the parallelism to {}; SCache placement follows each task's partition range",
          getVertexName(), parallelism);
      framework.reconfigureVertex(parallelism, locationHint, sourceEdgeProperties);
    }

    @Override
    public void reconfigureVertex(int parallelism, VertexLocationHint locationHint,
        Map<String, EdgeProperty> sourceEdgeProperties, Map<String, InputSpecUpdate> rootInputSpecUpdate) {
      LOG.info("{}: Tez sets the parallelism to {}; SCache placement follows each task's partition range",
          getVertexName(), parallelism);
      framework.reconfigureVertex(parallelism, locationHint, sourceEdgeProperties, rootInputSpecUpdate);
    }

    /** Schedules the held tasks with their placement once the master has one; {@code force}: without, if none. */
    void release(boolean force) {
      if (held.isEmpty()) {
        return;
      }
      boolean lastChance = force || allSourcesDone();
      Optional<List<ShufflePlacement>> schedules = schedules(lastChance
          ? TezScacheSettings.duration(conf, TezScacheOptions.SCHEDULE_WAIT)
          : Duration.ZERO);
      if (schedules.isEmpty() && !lastChance) {
        return;
      }
      List<ScheduleTaskRequest> out = new ArrayList<>(held.size());
      Map<String, Integer> affinityTurns = new HashMap<>();
      for (ScheduleTaskRequest r : held) {
        if (schedules.isEmpty()) {
          out.add(r);
          continue;
        }
        List<Integer> partitions = partitionsOf(r.getTaskIndex());
        Optional<WorkerInfo> worker = ConsumerPlacement.workerFor(schedules.get(), partitions);
        if (worker.isEmpty()) {
          out.add(r);
          continue;
        }
        TaskLocationHint hint = hintFor(worker.get(), affinityTurns);
        LOG.info("SCache placement: dag {} vertex {} task {} (partitions {}) -> worker {} hint {}", dagId,
            getVertexName(), r.getTaskIndex(), partitions, worker.get().workerId(), describe(hint));
        out.add(ScheduleTaskRequest.create(r.getTaskIndex(), hint));
      }
      if (schedules.isEmpty()) {
        LOG.warn("{}: SCache has no placement for this vertex's shuffles; scheduling {} tasks without hints",
            getVertexName(), out.size());
      }
      held.clear();
      framework.scheduleTasks(out);
    }
  }

  private static String describe(TaskLocationHint hint) {
    if (hint.getAffinitizedTask() != null) {
      return "container of " + hint.getAffinitizedTask().getVertexName() + " task "
          + hint.getAffinitizedTask().getTaskIndex();
    }
    return "hosts " + hint.getHosts();
  }
}
