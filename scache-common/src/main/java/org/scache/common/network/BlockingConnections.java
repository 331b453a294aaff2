package org.scache.common.network;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.scache.common.ScacheException;

/**
 * {@link BlockingConnection}s, one per peer address: opened in the calling thread when first asked
 * for, and again after one broke.
 */
public final class BlockingConnections implements ClientConnections {
  private final TransportSettings settings;
  private final Map<String, BlockingConnection> connections = new HashMap<>();
  private boolean closed;

  public BlockingConnections(TransportSettings settings) {
    this.settings = settings;
  }

  @Override
  public synchronized CompletableFuture<ClientConnection> get(String hostPort) {
    if (closed) {
      return CompletableFuture.failedFuture(new ScacheException(org.scache.common.protocol.Status.CONNECTION_FAILED,
          "the client is closed"));
    }
    BlockingConnection c = connections.get(hostPort);
    if (c == null || !c.isActive()) {
      int colon = hostPort.lastIndexOf(':');
      try {
        c = BlockingConnection.open(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)),
            settings);
      } catch (ScacheException e) {
        connections.remove(hostPort);
        return CompletableFuture.failedFuture(e);
      }
      connections.put(hostPort, c);
    }
    return CompletableFuture.completedFuture(c);
  }

  @Override
  public synchronized void close() {
    closed = true;
    connections.values().forEach(BlockingConnection::close);
    connections.clear();
  }
}
