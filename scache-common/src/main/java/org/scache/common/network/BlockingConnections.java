package org.scache.common.network;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;

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
  public synchronized CompletableFuture<BlockingConnection> get(String host, int port) {
    if (closed) {
      return CompletableFuture.failedFuture(new ScacheException(Status.CONNECTION_FAILED, "the client is closed"));
    }
    String key = host + ":" + port;
    BlockingConnection c = connections.get(key);
    if (c == null || !c.isActive()) {
      try {
        c = BlockingConnection.open(host, port, settings);
      } catch (ScacheException e) {
        connections.remove(key);
        return CompletableFuture.failedFuture(e);
      }
      connections.put(key, c);
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
