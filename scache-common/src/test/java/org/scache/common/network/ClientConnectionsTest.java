package org.scache.common.network;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.junit.jupiter.api.Test;
import org.scache.common.config.ScacheConf;

class ClientConnectionsTest {
  @Test
  void eachTransport_makesItsOwnKindOfConnections() {
    try (ClientConnections blocking = ClientConnections.of(ClientTransport.BLOCKING, ScacheConf.empty(), "t");
        ClientConnections netty = ClientConnections.of(ClientTransport.NETTY, ScacheConf.empty(), "t")) {
      assertInstanceOf(BlockingConnections.class, blocking);
      assertInstanceOf(ConnectionPool.class, netty);
    }
  }
}
