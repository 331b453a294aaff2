package org.scache.hadoop;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.scache.common.WorkerInfo;

/**
 * Which SCache worker runs in which NodeManager, as the application master sees it. Two kinds of node
 * identity meet here: the master places reduces on workers, YARN hands out containers on NodeManagers.
 * On a cluster with one NodeManager per host the host names tell them apart. Where several
 * NodeManagers share a host (a mini cluster) they do not, so the application master learns each
 * NodeManager's worker from the auxiliary service metadata the NodeManager returns whenever a container
 * of the job is started on it (see {@link ServiceMetadataRecordingLauncher}). Thread-safe.
 */
public final class NodeWorkers {
  private final String serviceName;
  private final Map<NodeId, String> learned = new ConcurrentHashMap<>();

  public NodeWorkers(String serviceName) {
    this.serviceName = serviceName;
  }

  /** Records the worker address in the metadata NodeManager {@code node} returned on a container start. */
  void recordServiceMetadata(NodeId node, Map<String, ByteBuffer> metadata) {
    if (metadata != null) {
      NodeWorkerAddress.decode(metadata.get(serviceName)).ifPresent(address -> learned.put(node, address));
    }
  }

  /** The worker running in NodeManager {@code node}, among {@code workers}, if it can be told. */
  public Optional<WorkerInfo> workerOn(NodeId node, Collection<WorkerInfo> workers) {
    String address = learned.get(node);
    if (address != null) {
      return workers.stream().filter(w -> w.address().equals(address)).findFirst();
    }
    List<WorkerInfo> sameHost = workers.stream().filter(w -> w.host().equalsIgnoreCase(node.getHost())).toList();
    boolean hostIsShared = learned.keySet().stream().anyMatch(n -> n.getHost().equalsIgnoreCase(node.getHost()));
    return sameHost.size() == 1 && !hostIsShared ? Optional.of(sameHost.get(0)) : Optional.empty();
  }

  /** The host to name in a container request for {@code worker}: its NodeManager's, when known. */
  public String hostOf(WorkerInfo worker) {
    return learned.entrySet().stream().filter(e -> e.getValue().equals(worker.address())).map(e -> e.getKey().getHost())
        .findFirst().orElse(worker.host());
  }
}
