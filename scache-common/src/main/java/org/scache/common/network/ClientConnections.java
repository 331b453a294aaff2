package org.scache.common.network;

import java.util.concurrent.CompletableFuture;
import org.scache.common.config.ScacheConf;

/**
 * A client's connections, one per peer address, reused by every call and opened again when broken.
 * {@link #of} makes the kind a {@link ClientTransport} names.
 */
public interface ClientConnections extends AutoCloseable {
  /** The live connection to {@code host:port}, opened if needed. */
  CompletableFuture<? extends ClientConnection> get(String host, int port);

  /** {@link #get(String, int)} for an address written {@code host:port}. */
  default CompletableFuture<? extends ClientConnection> get(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    return get(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
  }

  /** Closes every connection. */
  @Override
  void close();

  /**
   * Connections of {@code transport}, with the settings of {@code conf}: blocking sockets, or Netty event
   * loops whose threads are named after {@code threadName}. Netty's classes are loaded only for the latter.
   */
  static ClientConnections of(ClientTransport transport, ScacheConf conf, String threadName) {
    TransportSettings settings = TransportSettings.from(conf);
    if (transport == ClientTransport.BLOCKING) {
      return new BlockingConnections(settings);
    }
    return new ConnectionPool(settings, threadName);
  }
}
