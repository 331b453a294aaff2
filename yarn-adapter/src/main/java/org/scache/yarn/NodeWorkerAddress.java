package org.scache.yarn;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.yarn.util.AuxiliaryServiceHelper;

/**
 * How a task finds the SCache worker of its own NodeManager: the auxiliary service publishes the
 * worker's {@code host:port} as its service metadata, and the NodeManager hands every container
 * that metadata in the environment variable {@code NM_AUX_SERVICE_<service name>}. This holds even
 * when several NodeManagers share a host, as each one passes on its own service's metadata.
 */
public final class NodeWorkerAddress {
  private NodeWorkerAddress() {}

  /** The metadata the auxiliary service returns from {@code getMetaData()}. */
  public static ByteBuffer encode(String hostPort) {
    return ByteBuffer.wrap(hostPort.getBytes(StandardCharsets.UTF_8));
  }

  /** The worker address published by aux service {@code serviceName}, if this container's NodeManager runs one. */
  public static Optional<String> fromEnvironment(String serviceName, Map<String, String> env) {
    return decode(AuxiliaryServiceHelper.getServiceDataFromEnv(serviceName, env));
  }

  /** The worker address in the auxiliary service's metadata, if it holds one. */
  public static Optional<String> decode(ByteBuffer meta) {
    if (meta == null || !meta.hasRemaining()) {
      return Optional.empty();
    }
    byte[] bytes = new byte[meta.remaining()];
    meta.duplicate().get(bytes);
    String address = new String(bytes, StandardCharsets.UTF_8).trim();
    return address.isEmpty() ? Optional.empty() : Optional.of(address);
  }
}
