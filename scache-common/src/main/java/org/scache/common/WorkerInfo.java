package org.scache.common;

import java.util.Objects;

/**
 * A worker's identity and the address it serves on. The id tells apart workers that share a host
 * (for example NodeManagers of a mini cluster); the host and port are where to connect.
 */
public record WorkerInfo(String workerId, String host, int port) {

  public WorkerInfo {
    Objects.requireNonNull(workerId, "workerId");
    Objects.requireNonNull(host, "host");
    Checks.require(!workerId.isEmpty(), "worker id must not be empty");
    Checks.require(port > 0 && port < 65536, "port out of range: %s", port);
  }

  /** {@code host:port}. */
  public String address() {
    return host + ":" + port;
  }
}
