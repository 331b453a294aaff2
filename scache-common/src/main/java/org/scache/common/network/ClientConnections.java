package org.scache.common.network;

import java.util.concurrent.CompletableFuture;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;

/**
 * A client's connections, one per peer address, reused by every call and opened again when broken.
 * {@link #of} chooses the kind {@code scache.client.transport.mode} names.
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

  /** The connections {@code conf} asks for: Netty event loops, or blocking sockets. */
  static ClientConnections of(ScacheConf conf, String threadName) {
    TransportSettings settings = TransportSettings.from(conf);
    return switch (conf.get(ScacheOptions.CLIENT_TRANSPORT_MODE)) {
      case "blocking" -> new BlockingConnections(settings);
      default -> new ConnectionPool(settings, threadName);
    };
  }
}
