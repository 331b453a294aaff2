package org.scache.common.network;

import java.time.Duration;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;

/**
 * The limits and timeouts every SCache connection uses (the connection limits and the idle timeout
 * apply to the accepting side: a master's or worker's server), and whether signed requests cover
 * their payload's digest.
 */
public record TransportSettings(int maxMetaLength, long maxPayloadLength, Duration connectTimeout, int ioThreads,
    int maxConnections, int maxConnectionsPerAddress, Duration idleTimeout, boolean payloadDigest) {

  /** Settings with the default server limits. */
  public TransportSettings(int maxMetaLength, long maxPayloadLength, Duration connectTimeout, int ioThreads) {
    this(maxMetaLength, maxPayloadLength, connectTimeout, ioThreads,
        ScacheConf.empty().get(ScacheOptions.NETWORK_SERVER_CONNECTIONS_MAX),
        ScacheConf.empty().get(ScacheOptions.NETWORK_SERVER_CONNECTIONS_PER_ADDRESS_MAX),
        ScacheConf.empty().get(ScacheOptions.NETWORK_SERVER_IDLE_TIMEOUT),
        ScacheConf.empty().get(ScacheOptions.SECURITY_PAYLOAD_DIGEST));
  }

  public static TransportSettings from(ScacheConf conf) {
    return new TransportSettings(conf.get(ScacheOptions.NETWORK_FRAME_META_MAX),
        conf.get(ScacheOptions.NETWORK_FRAME_PAYLOAD_MAX), conf.get(ScacheOptions.NETWORK_CONNECT_TIMEOUT),
        conf.get(ScacheOptions.NETWORK_IO_THREADS), conf.get(ScacheOptions.NETWORK_SERVER_CONNECTIONS_MAX),
        conf.get(ScacheOptions.NETWORK_SERVER_CONNECTIONS_PER_ADDRESS_MAX),
        conf.get(ScacheOptions.NETWORK_SERVER_IDLE_TIMEOUT), conf.get(ScacheOptions.SECURITY_PAYLOAD_DIGEST));
  }

  public static TransportSettings defaults() {
    return from(ScacheConf.empty());
  }
}
