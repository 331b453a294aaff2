package org.scache.hadoop.appmaster;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.scache.common.WorkerInfo;
import org.scache.yarn.NodeWorkerAddress;

/**
 * Which SCache worker runs in which NodeManager, as the application master sees it. Two kinds of node
 * identity meet here: the master places reduces on workers, YARN hands out containers on NodeManagers.
 * On a cluster with one NodeManager per host the host names tell them apart. Where several
 * NodeManagers share a host (a mini cluster) they do not, so the application master learns each
 * NodeManager's worker from the auxiliary service metadata the NodeManager returns whenever a container
 * of the job is started on it (see {@link ServiceMetadataRecordingLauncher}). A NodeManager no container
 * of the job has started on yet is told by elimination: when it is the only such NodeManager of its host
 * the job has been offered, and exactly one worker of that host is not yet matched to a NodeManager, that
 * worker is its.
 *
 * <p>Container requests name a node as the ResourceManager's scheduler does: by host, or, where it is set to
 * tell NodeManagers apart by port too ({@code yarn.scheduler.include-port-in-node-name}, for NodeManagers
 * sharing a host), by host and port once the NodeManager is known. Thread-safe.
 */
public final class NodeWorkers {
  private final String serviceName;
  private final boolean nodeNamesIncludePort;
  private final Map<NodeId, String> learned = new ConcurrentHashMap<>();
  private final Set<NodeId> offered = ConcurrentHashMap.newKeySet();

  /** {@code nodeNamesIncludePort}: the scheduler names a node by host and port (see the class comment). */
  public NodeWorkers(String serviceName, boolean nodeNamesIncludePort) {
    this.serviceName = serviceName;
    this.nodeNamesIncludePort = nodeNamesIncludePort;
  }

  /** Records the worker address in the metadata NodeManager {@code node} returned on a container start. */
  void recordServiceMetadata(NodeId node, Map<String, ByteBuffer> metadata) {
    if (metadata != null) {
      NodeWorkerAddress.decode(metadata.get(serviceName)).ifPresent(address -> learned.put(node, address));
    }
  }

  /**
   * Records the worker of the NodeManager this container runs on, from the container's environment: the
   * NodeManager's id ({@code NM_HOST}, {@code NM_PORT}) and its auxiliary service metadata. The application
   * master's own NodeManager is known this way before any task starts.
   */
  void recordOwnNode(Map<String, String> env) {
    String host = env.get(org.apache.hadoop.yarn.api.ApplicationConstants.Environment.NM_HOST.name());
    String port = env.get(org.apache.hadoop.yarn.api.ApplicationConstants.Environment.NM_PORT.name());
    if (host == null || port == null) {
      return;
    }
    try {
      NodeId node = NodeId.newInstance(host, Integer.parseInt(port.trim()));
      NodeWorkerAddress.fromEnvironment(serviceName, env).ifPresent(address -> learned.put(node, address));
    } catch (NumberFormatException e) {
      // not a NodeManager's environment
    }
  }

  /** The worker running in NodeManager {@code node}, among {@code workers}, if it can be told. */
  public Optional<WorkerInfo> workerOn(NodeId node, Collection<WorkerInfo> workers) {
    offered.add(node);
    String address = learned.get(node);
    if (address != null) {
      return workers.stream().filter(w -> w.address().equals(address)).findFirst();
    }
    List<WorkerInfo> sameHost = workers.stream().filter(w -> w.host().equalsIgnoreCase(node.getHost())).toList();
    boolean hostIsShared = learned.keySet().stream().anyMatch(n -> sameHost(n, node));
    if (!hostIsShared) {
      return sameHost.size() == 1 ? Optional.of(sameHost.get(0)) : Optional.empty();
    }
    long unlearnedNodes = offered.stream().filter(n -> sameHost(n, node) && !learned.containsKey(n)).count();
    // the workers of this host: by name, or by the address workers of its other NodeManagers advertise
    Set<String> hostNames = new java.util.HashSet<>();
    hostNames.add(node.getHost().toLowerCase(java.util.Locale.ROOT));
    learned.forEach((n, a) -> {
      if (sameHost(n, node)) {
        workers.stream().filter(w -> w.address().equals(a))
            .forEach(w -> hostNames.add(w.host().toLowerCase(java.util.Locale.ROOT)));
      }
    });
    List<WorkerInfo> unmatched = workers.stream()
        .filter(w -> hostNames.contains(w.host().toLowerCase(java.util.Locale.ROOT)))
        .filter(w -> !learned.containsValue(w.address())).toList();
    return unlearnedNodes == 1 && unmatched.size() == 1 ? Optional.of(unmatched.get(0)) : Optional.empty();
  }

  /**
   * Whether {@code name}, as a container request names a node, is known to name a NodeManager, so that a
   * request may be held to it: a NodeManager whose worker the job has learned; or, where the scheduler names
   * nodes by host, a worker's host, unless a learned NodeManager's worker advertises a host other than the
   * NodeManager's (then a worker's host need not be a node's name).
   */
  public boolean isNodeName(String name) {
    if (learned.keySet().stream().anyMatch(n -> nameOf(n).equals(name))) {
      return true;
    }
    return !nodeNamesIncludePort && learned.entrySet().stream().allMatch(e -> advertisesHost(e.getValue(), e.getKey()));
  }

  /** Whether worker address {@code address} ({@code host:port}) names the host of NodeManager {@code node}. */
  private static boolean advertisesHost(String address, NodeId node) {
    int colon = address.lastIndexOf(':');
    return colon > 0 && address.substring(0, colon).equalsIgnoreCase(node.getHost());
  }

  private String nameOf(NodeId node) {
    return nodeNamesIncludePort ? node.getHost() + ":" + node.getPort() : node.getHost();
  }

  private static boolean sameHost(NodeId a, NodeId b) {
    return a.getHost().equalsIgnoreCase(b.getHost());
  }

  /**
   * The node to name in a container request for {@code worker}: its NodeManager's host, or host and port
   * where the scheduler names nodes so, when the NodeManager is known; the worker's host otherwise.
   */
  public String nodeNameOf(WorkerInfo worker) {
    return learned.entrySet().stream().filter(e -> e.getValue().equals(worker.address()))
        .map(e -> nameOf(e.getKey()))
        .findFirst().orElse(worker.host());
  }
}
