package org.scache.hadoop.appmaster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.scache.common.Clock;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.ReduceAssignment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application master's half of the paper's co-scheduling: reduces are requested only once the
 * master has placed them, each with its pre-scheduled node as locality, and every reduce container
 * YARN hands out is given the pending reduce placed on that container's node. A container on a node
 * no pending reduce was placed on is returned, unless a reduce has waited for its own node longer than
 * reading its predicted input remotely would take, or than the placement delay ({@link #waitMillis}):
 * then that reduce takes it and reads its input remotely, so no reduce is ever stuck, and a reduce
 * with little input does not wait for its node at all. A reduce whose node runs an earlier round of the job's
 * reduces also waits while that node frees a container within the time reading its input remotely would
 * take, before or after now: when one of its reduces should end (its start plus the median run of the job's
 * finished reduces) or has just ended. A reduce placed on a node YARN reports lost
 * or unusable does not wait: it is requested without locality and takes the first container it is offered.
 * Without a placement (the master gave no answer) reduces run wherever YARN puts them.
 *
 * <p>Called from the container allocator's thread; the counts are read by anyone.
 */
public final class ReducePlacement {
  private static final Logger LOG = LoggerFactory.getLogger(ReducePlacement.class);

  /** A reduce waiting for a container: the allocator's key for it, and its reduce id. */
  public record Pending<K>(K key, int reduceId) {}

  /** What to do with one reduce container: run pending reduce {@code pendingIndex}, or return it (-1). */
  public record Choice(int pendingIndex, boolean onScheduledNode) {
    static final Choice RETURN = new Choice(-1, false);
  }

  private final ScheduleWatcher watcher;
  private final NodeWorkers nodeWorkers;
  private final Clock clock;
  private final long delayMillis;
  private final long remoteBytesPerSecond;
  private final long scheduleWaitMillis;
  private final Map<Object, Long> waitingSince = new HashMap<>();
  private final RunningReduces running = new RunningReduces();
  private final Set<WorkerInfo> lostWorkers = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final AtomicInteger onScheduledNode = new AtomicInteger();
  private final AtomicInteger elsewhere = new AtomicInteger();
  private long mapsDoneAt = -1;

  ReducePlacement(ScheduleWatcher watcher, NodeWorkers nodeWorkers, Clock clock, long delayMillis,
      long remoteBytesPerSecond, long scheduleWaitMillis) {
    this.watcher = watcher;
    this.nodeWorkers = nodeWorkers;
    this.clock = clock;
    this.delayMillis = delayMillis;
    this.remoteBytesPerSecond = remoteBytesPerSecond;
    this.scheduleWaitMillis = scheduleWaitMillis;
  }

  /**
   * Whether reduce requests are still held back: until the placement exists, the master is given up
   * on, or the maps have all been done for longer than the schedule wait.
   */
  public boolean holdsRequests(int completedMaps, int totalMaps) {
    if (watcher.schedule().isPresent() || watcher.gaveUp().isPresent()) {
      return false;
    }
    if (completedMaps < totalMaps) {
      return true;
    }
    long now = clock.millis();
    if (mapsDoneAt < 0) {
      mapsDoneAt = now;
    }
    if (now - mapsDoneAt < scheduleWaitMillis) {
      return true;
    }
    LOG.warn("no placement from the master {} ms after the last map; reduces run wherever YARN puts them",
        now - mapsDoneAt);
    return false;
  }

  /** The nodes to request a container of {@code reduceId} on: its pre-scheduled node, if placed. */
  public String[] hostsFor(int reduceId) {
    return scheduledWorker(reduceId).map(w -> new String[] {nodeWorkers.nodeNameOf(w)}).orElse(new String[0]);
  }

  /** Whether containers are matched to reduces; false without a placement. */
  public boolean placing() {
    return watcher.schedule().isPresent();
  }

  /**
   * Chooses, for each reduce container just allocated (by node, in arrival order), the pending reduce
   * it runs, or that it is returned. Each pending reduce is chosen at most once. While {@code mapsRunning},
   * a reduce waits for its own node without counting the time: it could not finish before the maps anyway,
   * so the wait costs the job nothing; its wait ({@link #waitMillis}) runs from the end of the maps.
   */
  public <K> List<Choice> assign(List<NodeId> containerNodes, List<Pending<K>> pending, boolean mapsRunning) {
    long now = clock.millis();
    noteWaiting(pending, mapsRunning, now);
    List<WorkerInfo> workers = workers();
    boolean[] taken = new boolean[pending.size()];
    List<Choice> choices = new ArrayList<>(containerNodes.size());
    for (NodeId node : containerNodes) {
      Optional<WorkerInfo> worker = nodeWorkers.workerOn(node, workers);
      int match = -1;
      for (int i = 0; i < pending.size() && worker.isPresent() && match < 0; i++) {
        if (!taken[i] && scheduledWorker(pending.get(i).reduceId()).equals(worker)) {
          match = i;
        }
      }
      if (match >= 0) {
        taken[match] = true;
        choices.add(new Choice(match, true));
        onScheduledNode.incrementAndGet();
        LOG.info("reduce {} runs on {}, the node it was placed on", pending.get(match).reduceId(), node);
      } else {
        choices.add(Choice.RETURN);
      }
    }
    for (int c = 0; c < choices.size(); c++) {
      if (choices.get(c).pendingIndex() >= 0) {
        continue;
      }
      for (int i = 0; i < pending.size(); i++) {
        Pending<K> p = pending.get(i);
        if (!taken[i] && waitedEnough(p, now)) {
          taken[i] = true;
          choices.set(c, new Choice(i, false));
          elsewhere.incrementAndGet();
          LOG.info("reduce {} runs on {}, not on its placed node {} (waited {} ms)", p.reduceId(),
              containerNodes.get(c), assignedWorker(p.reduceId())
                  .map(w -> lostWorkers.contains(w) ? w.workerId() + ", unusable," : w.workerId()).orElse("(none)"),
              now - waitingSince.get(p.key()));
          break;
        }
      }
    }
    return choices;
  }

  /**
   * Whether the ResourceManager may be held to the placed nodes of the reduces waiting for containers
   * ({@code relaxLocality=false} on their rack and off-switch asks), so that it offers no container on
   * another node: while every one of them is placed on a usable node its request names, and none has waited
   * for it long enough to take a container elsewhere ({@link #waitMillis}, and the busy-node rule). Once
   * one has, the asks are relaxed again and that reduce takes the next container offered, as {@link #assign}
   * decides; so no reduce is ever stuck. Called before every request to the ResourceManager, so that a
   * reduce's wait is counted even while no container comes.
   *
   * @param requestedNodes for each pending reduce, the node its container request names (null: none)
   */
  public <K> boolean holdsToPlacedNodes(List<Pending<K>> pending, List<String> requestedNodes, boolean mapsRunning) {
    long now = clock.millis();
    noteWaiting(pending, mapsRunning, now);
    if (pending.isEmpty() || !placing()) {
      return false;
    }
    for (int i = 0; i < pending.size(); i++) {
      Pending<K> p = pending.get(i);
      String requested = requestedNodes.get(i);
      Optional<WorkerInfo> worker = scheduledWorker(p.reduceId());
      if (requested == null || worker.isEmpty() || !requested.equals(nodeWorkers.nodeNameOf(worker.get()))
          || !nodeWorkers.isNodeName(requested) || waitedEnough(p, now)) {
        return false;
      }
    }
    return true;
  }

  /** Starts the wait of each newly pending reduce (restarts it while the maps run) and forgets the rest. */
  private <K> void noteWaiting(List<Pending<K>> pending, boolean mapsRunning, long now) {
    Set<Object> keys = new HashSet<>();
    for (Pending<K> p : pending) {
      keys.add(p.key());
      if (mapsRunning) {
        waitingSince.put(p.key(), now);
      } else {
        waitingSince.putIfAbsent(p.key(), now);
      }
    }
    waitingSince.keySet().retainAll(keys);
  }

  /**
   * Whether reduce {@code p} has waited long enough for its node to take a container elsewhere: for
   * {@link #waitMillis} since the end of the maps or its request, unless its node frees a container
   * (a running reduce of the job there should end, or one has just ended) after the reduce began to wait
   * and within its remote read's time of now: waiting for that container costs less than the read.
   */
  private boolean waitedEnough(Pending<?> p, long now) {
    Optional<WorkerInfo> worker = scheduledWorker(p.reduceId());
    if (worker.isEmpty()) {
      return true;
    }
    long since = waitingSince.get(p.key());
    long remoteRead = remoteReadMillis(p.reduceId());
    if (running.freeTimes(worker.get()).anyMatch(f -> f > since && Math.abs(f - now) < remoteRead)) {
      return false;
    }
    return now - since >= waitMillis(p.reduceId());
  }

  /**
   * How long reduce {@code reduceId} waits for a container on its placed node: the placement delay, or,
   * when the master predicted its input, as long as reading that input from another node would take,
   * if that is shorter. Waiting longer than the remote read would cost the job more than it saves.
   */
  long waitMillis(int reduceId) {
    return Math.min(delayMillis, remoteReadMillis(reduceId));
  }

  /** How long reading reduce {@code reduceId}'s predicted input from another node takes; the delay if unknown. */
  private long remoteReadMillis(int reduceId) {
    long predicted = watcher.schedule().flatMap(s -> s.assignment(reduceId)).map(ReduceAssignment::predictedBytes)
        .orElse(ReduceAssignment.UNKNOWN_SIZE);
    if (predicted < 0 || remoteBytesPerSecond <= 0) {
      return delayMillis;
    }
    return predicted * 1000 / remoteBytesPerSecond;
  }

  /** A reduce container {@code container} of the job was given to a reduce on {@code node}. */
  public void reduceStarted(Object container, NodeId node) {
    nodeWorkers.workerOn(node, workers()).ifPresent(w -> running.started(container, w, clock.millis()));
  }

  /** Container {@code container} of the job ended; those that ran no reduce are ignored. */
  public void containerEnded(Object container) {
    running.ended(container, clock.millis());
  }

  /**
   * YARN reported {@code node} lost or unusable: the reduces placed on its worker no longer wait for
   * it. Their input is read from the other workers (or, for blocks only that node held, from the maps'
   * re-runs).
   */
  public void nodeUnusable(NodeId node) {
    nodeWorkers.workerOn(node, workers()).ifPresent(w -> {
      if (lostWorkers.add(w)) {
        LOG.warn("node {} (SCache worker {}) is unusable: the reduces placed there run elsewhere", node,
            w.workerId());
      }
    });
  }

  /** Counts reduce containers handed out while there is no placement. */
  public void countUnplaced(int containers) {
    elsewhere.addAndGet(containers);
  }

  /** Reduces started on the node they were placed on. */
  public int onScheduledNode() {
    return onScheduledNode.get();
  }

  /** Reduces started elsewhere. */
  public int elsewhere() {
    return elsewhere.get();
  }

  private List<WorkerInfo> workers() {
    return watcher.schedule().map(s -> s.assignments().stream().map(ReduceAssignment::worker).distinct()
        .toList()).orElse(List.of());
  }

  /** The worker {@code reduceId} was placed on, unless its node became unusable. */
  private Optional<WorkerInfo> scheduledWorker(int reduceId) {
    return assignedWorker(reduceId).filter(w -> !lostWorkers.contains(w));
  }

  private Optional<WorkerInfo> assignedWorker(int reduceId) {
    return watcher.schedule().flatMap(s -> s.workerOf(reduceId));
  }
}
