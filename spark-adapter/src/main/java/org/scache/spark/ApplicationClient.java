package org.scache.spark;

import java.util.function.Supplier;
import org.scache.client.ScacheClient;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.network.ClientTransport;

/**
 * The SCache client of one Spark process (driver or executor) for its application, opened on first
 * use and shared by every task of the process. It talks to the worker of the process's own node.
 */
final class ApplicationClient implements AutoCloseable {
  private final ScacheConf conf;
  private final String appId;
  private final byte[] secret;
  private final Supplier<String> workerAddress;
  private ScacheClient client;
  private boolean closed;

  ApplicationClient(ScacheConf conf, String appId, byte[] secret, Supplier<String> workerAddress) {
    this.conf = conf;
    this.appId = appId;
    this.secret = secret.clone();
    this.workerAddress = workerAddress;
  }

  String appId() {
    return appId;
  }

  synchronized ScacheClient get() {
    if (closed) {
      throw new IllegalStateException("the SCache client of " + appId + " is closed");
    }
    if (client == null) {
      // executors and the driver live long and make many calls at once: Netty's event loops
      client = ScacheClient.create(conf.withDefault(ScacheOptions.CLIENT_WORKER_ADDRESS, workerAddress.get()), appId,
          secret, ClientTransport.NETTY);
    }
    return client;
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (client != null) {
      client.close();
      client = null;
    }
  }
}
