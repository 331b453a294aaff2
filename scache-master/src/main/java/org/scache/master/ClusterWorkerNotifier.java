package org.scache.master;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.scache.common.WorkerInfo;
import org.scache.common.auth.Credentials;
import org.scache.common.network.ConnectionPool;
import org.scache.common.protocol.EncodedOnce;
import org.scache.common.protocol.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Sends the master's messages to workers over pooled connections, signed with the cluster secret. */
final class ClusterWorkerNotifier implements WorkerNotifier {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterWorkerNotifier.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final ConnectionPool connections;
  private final Credentials cluster;

  ClusterWorkerNotifier(ConnectionPool connections, Credentials cluster) {
    this.connections = connections;
    this.cluster = cluster;
  }

  @Override
  public CompletableFuture<Void> tell(WorkerInfo w, Message m) {
    return connections.get(w.host(), w.port())
        .thenCompose(c -> c.call(m, Optional.of(cluster), TIMEOUT))
        .handle((r, e) -> {
          if (e != null) {
            LOG.debug("cannot tell worker {} {}: {}", w.workerId(), m.type(), e.toString());
          } else {
            r.payload().release();
          }
          return null;
        });
  }

  /** Encodes {@code m} once for all of {@code workers}: a placement told to a thousand workers is written once. */
  @Override
  public CompletableFuture<Void> tellAll(List<WorkerInfo> workers, Message m) {
    Message once = workers.size() > 1 ? EncodedOnce.of(m) : m;
    return CompletableFuture.allOf(workers.stream().map(w -> tell(w, once)).toArray(CompletableFuture[]::new));
  }

  @Override
  public void close() {
    connections.close();
  }
}
