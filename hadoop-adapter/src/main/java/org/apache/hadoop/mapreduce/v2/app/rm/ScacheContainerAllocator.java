package org.apache.hadoop.mapreduce.v2.app.rm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.client.ClientService;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobCounterUpdateEvent;
import org.apache.hadoop.mapreduce.v2.app.rm.preemption.AMPreemptionPolicy;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.util.RackResolver;
import org.scache.hadoop.ScacheCounter;
import org.scache.hadoop.appmaster.ReduceLaunchLead;
import org.scache.hadoop.appmaster.ReduceLocalityAsks;
import org.scache.hadoop.appmaster.ReducePlacement;

/**
 * Hadoop's container allocator with reduces placed by {@link ReducePlacement}. It sits in Hadoop's
 * package only to reach the allocator's queue of scheduled reduces; every decision is made by
 * {@code ReducePlacement}. Four things differ from the stock allocator: reduce requests are held
 * until the placement exists and the last maps near their end ({@link ReduceLaunchLead}), and then
 * carry their node (and its rack) as locality; while
 * {@code ReducePlacement} says so, the ResourceManager is held to those nodes ({@link ReduceLocalityAsks});
 * the queue of scheduled reduces is
 * reordered before each batch of containers is assigned, so the stock assignment (which gives a reduce
 * container to the first reduce in the queue) hands each container to the reduce placed on its node;
 * and a container no pending reduce should take is returned and asked for again. Nodes the
 * ResourceManager reports unusable, and the reduce containers started and ended (when a busy node will
 * free one), are passed on to {@code ReducePlacement}.
 */
public class ScacheContainerAllocator extends RMContainerAllocator {
  private final ReducePlacement placement;
  private final ReduceLaunchLead launchLead;
  private final List<ContainerRequestEvent> held = new ArrayList<>();
  private final ReduceLocalityAsks localityAsks = new ReduceLocalityAsks(PRIORITY_REDUCE);

  public ScacheContainerAllocator(ClientService clientService, AppContext context, AMPreemptionPolicy preemptionPolicy,
      ReducePlacement placement, ReduceLaunchLead launchLead) {
    super(clientService, context, preemptionPolicy);
    this.placement = placement;
    this.launchLead = launchLead;
  }

  /** Whether reduce requests are held: until the placement exists, and until the last maps near their end. */
  private boolean holdsReduceRequests() {
    return placement.holdsRequests(getJob().getCompletedMaps(), getJob().getTotalMaps())
        || launchLead.holds(getJob().getTasks(TaskType.MAP).values());
  }

  @Override
  protected synchronized void handleEvent(ContainerAllocatorEvent event) {
    if (event.getType() == ContainerAllocator.EventType.CONTAINER_REQ
        && event.getAttemptID().getTaskId().getTaskType() == TaskType.REDUCE) {
      ContainerRequestEvent request = (ContainerRequestEvent) event;
      if (!request.getEarlierAttemptFailed() && holdsReduceRequests()) {
        held.add(request);
        return;
      }
      super.handleEvent(withPlacedHost(request));
      return;
    }
    if (event.getType() == ContainerAllocator.EventType.CONTAINER_DEALLOCATE
        && held.removeIf(r -> r.getAttemptID().equals(event.getAttemptID()))) {
      return;
    }
    super.handleEvent(event);
  }

  @Override
  protected synchronized void heartbeat() throws Exception {
    if (!held.isEmpty() && !holdsReduceRequests()) {
      List<ContainerRequestEvent> release = new ArrayList<>(held);
      held.clear();
      for (ContainerRequestEvent r : release) {
        super.handleEvent(withPlacedHost(r));
      }
    }
    super.heartbeat();
  }

  private ContainerRequestEvent withPlacedHost(ContainerRequestEvent request) {
    if (request.getEarlierAttemptFailed()) {
      return request;
    }
    String[] hosts = placement.hostsFor(request.getAttemptID().getTaskId().getId());
    if (hosts.length == 0) {
      return request;
    }
    return new ContainerRequestEvent(request.getAttemptID(), request.getCapability(), hosts, rackOf(hosts[0]));
  }

  /** The scheduler gives a node-local container only while the node's rack is asked for too. */
  private static String[] rackOf(String node) {
    return new String[] {RackResolver.resolve(node).getNetworkLocation()};
  }

  /**
   * Asks again, under its current name, for the node of each reduce whose request named it otherwise: a
   * NodeManager the job had run nothing on when the reduce was requested (named then by its worker's
   * host), or a node YARN has since reported unusable (asked for without locality now).
   */
  private void renameRequestedNodes() {
    for (Map.Entry<TaskAttemptId, ContainerRequest> e : getScheduledRequests().reduces.entrySet()) {
      ContainerRequest r = e.getValue();
      if (r.hosts.length != 1) {
        continue;
      }
      String[] hosts = placement.hostsFor(e.getKey().getTaskId().getId());
      if (hosts.length == 1 && hosts[0].equals(r.hosts[0])) {
        continue;
      }
      ContainerRequest renamed = new ContainerRequest(r.attemptID, r.capability, hosts,
          hosts.length == 0 ? new String[0] : rackOf(hosts[0]), r.priority, r.requestTimeMs, r.nodeLabelExpression);
      decContainerReq(r);
      addContainerReq(renamed);
      e.setValue(renamed);
    }
  }

  @Override
  protected AllocateResponse makeRemoteRequest() throws YarnException, IOException {
    synchronized (this) {
      if (placement.placing()) {
        renameRequestedNodes();
      }
      localityAsks.apply(getAsk(), holdsToPlacedNodes());
    }
    AllocateResponse response = super.makeRemoteRequest();
    for (ContainerStatus ended : response.getCompletedContainersStatuses()) {
      placement.containerEnded(ended.getContainerId());
    }
    for (NodeReport node : response.getUpdatedNodes()) {
      if (node.getNodeState().isUnusable()) {
        placement.nodeUnusable(node.getNodeId());
      }
    }
    List<Container> reduceContainers = new ArrayList<>();
    for (Container c : response.getAllocatedContainers()) {
      if (PRIORITY_REDUCE.equals(c.getPriority())) {
        reduceContainers.add(c);
      }
    }
    if (!reduceContainers.isEmpty()) {
      synchronized (this) {
        if (placement.placing()) {
          place(response, reduceContainers);
        } else {
          int unplaced = Math.min(reduceContainers.size(), getScheduledRequests().reduces.size());
          placement.countUnplaced(unplaced);
          count(0, unplaced);
        }
      }
    }
    return response;
  }

  /** Whether the reduces waiting for containers may be offered containers on their placed nodes only. */
  private boolean holdsToPlacedNodes() {
    if (!placement.placing()) {
      return false;
    }
    LinkedHashMap<TaskAttemptId, ContainerRequest> reduces = getScheduledRequests().reduces;
    List<ReducePlacement.Pending<TaskAttemptId>> pending = new ArrayList<>(reduces.size());
    List<String> requestedNodes = new ArrayList<>(reduces.size());
    for (Map.Entry<TaskAttemptId, ContainerRequest> e : reduces.entrySet()) {
      pending.add(new ReducePlacement.Pending<>(e.getKey(), e.getKey().getTaskId().getId()));
      String[] hosts = e.getValue().hosts;
      requestedNodes.add(hosts.length == 1 ? hosts[0] : null);
    }
    return placement.holdsToPlacedNodes(pending, requestedNodes,
        getJob().getCompletedMaps() < getJob().getTotalMaps());
  }

  private void place(AllocateResponse response, List<Container> reduceContainers) {
    LinkedHashMap<TaskAttemptId, ContainerRequest> reduces = getScheduledRequests().reduces;
    List<ReducePlacement.Pending<TaskAttemptId>> pending = new ArrayList<>(reduces.size());
    for (TaskAttemptId attempt : reduces.keySet()) {
      pending.add(new ReducePlacement.Pending<>(attempt, attempt.getTaskId().getId()));
    }
    List<NodeId> nodes = reduceContainers.stream().map(Container::getNodeId).toList();
    List<ReducePlacement.Choice> choices = placement.assign(nodes, pending,
        getJob().getCompletedMaps() < getJob().getTotalMaps());

    LinkedHashMap<TaskAttemptId, ContainerRequest> reordered = new LinkedHashMap<>();
    Set<Container> returned = new HashSet<>();
    int onNode = 0;
    int elsewhere = 0;
    for (int c = 0; c < choices.size(); c++) {
      ReducePlacement.Choice choice = choices.get(c);
      if (choice.pendingIndex() < 0) {
        returned.add(reduceContainers.get(c));
        continue;
      }
      TaskAttemptId attempt = pending.get(choice.pendingIndex()).key();
      reordered.put(attempt, reduces.get(attempt));
      placement.reduceStarted(reduceContainers.get(c).getId(), reduceContainers.get(c).getNodeId());
      if (choice.onScheduledNode()) {
        onNode++;
      } else {
        elsewhere++;
      }
    }
    for (Map.Entry<TaskAttemptId, ContainerRequest> e : reduces.entrySet()) {
      reordered.putIfAbsent(e.getKey(), e.getValue());
    }
    reduces.clear();
    reduces.putAll(reordered);
    count(onNode, elsewhere);
    if (returned.isEmpty()) {
      return;
    }
    List<Container> kept = new ArrayList<>(response.getAllocatedContainers());
    for (Iterator<Container> it = kept.iterator(); it.hasNext();) {
      Container c = it.next();
      if (returned.contains(c)) {
        it.remove();
        pendingRelease.add(c.getId());
        release(c.getId());
      }
    }
    response.setAllocatedContainers(kept);
    // the ResourceManager counted the returned containers as granted: state the outstanding asks again
    for (ContainerRequest r : reduces.values()) {
      decContainerReq(r);
      addContainerReq(r);
    }
  }

  @SuppressWarnings("unchecked")
  private void count(int onNode, int elsewhere) {
    if (onNode + elsewhere == 0) {
      return;
    }
    JobCounterUpdateEvent update = new JobCounterUpdateEvent(getJob().getID());
    update.addCounterUpdate(ScacheCounter.REDUCES_ON_SCHEDULED_NODE, onNode);
    update.addCounterUpdate(ScacheCounter.REDUCES_ELSEWHERE, elsewhere);
    eventHandler.handle(update);
  }
}
