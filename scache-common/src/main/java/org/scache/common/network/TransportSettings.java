package org.scache.common.network;

import io.netty.channel.WriteBufferWaterMark;
import java.time.Duration;
import org.scache.common.Checks;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;

/**
 * The limits and timeouts every SCache connection uses (the connection limits and the idle timeouts
 * apply to the accepting side: a master's or worker's server), whether signed requests cover their
 * payload's digest, and the write-buffer water marks between which a connection turns unwritable.
 */
public record TransportSettings(int maxMetaLength, long maxPayloadLength, Duration connectTimeout, int ioThreads,
    int maxConnections, int maxConnectionsPerAddress, Duration idleTimeout, boolean payloadDigest,
    int maxUnauthenticatedPerAddress, Duration unauthenticatedIdleTimeout, int writeBufferLowBytes,
    int writeBufferHighBytes) {

  public TransportSettings {
    Checks.require(writeBufferLowBytes > 0 && writeBufferLowBytes <= writeBufferHighBytes,
        "the write buffer's low water mark (%s) must be positive and at most its high one (%s)", writeBufferLowBytes,
        writeBufferHighBytes);
  }

  /** Settings with the default server limits. */
  public TransportSettings(int maxMetaLength, long maxPayloadLength, Duration connectTimeout, int ioThreads) {
    this(maxMetaLength, maxPayloadLength, connectTimeout, ioThreads,
        ScacheConf.empty().get(ScacheOptions.NETWORK_SERVER_CONNECTIONS_MAX),
        ScacheConf.empty().get(ScacheOptions.NETWORK_SERVER_CONNECTIONS_PER_ADDRESS_MAX),
        ScacheConf.empty().get(ScacheOptions.NETWORK_SERVER_IDLE_TIMEOUT),
        ScacheConf.empty().get(ScacheOptions.SECURITY_PAYLOAD_DIGEST));
  }

  /** Settings with the given server limits, and the defaults for unauthenticated connections and write buffers. */
  public TransportSettings(int maxMetaLength, long maxPayloadLength, Duration connectTimeout, int ioThreads,
      int maxConnections, int maxConnectionsPerAddress, Duration idleTimeout, boolean payloadDigest) {
    this(maxMetaLength, maxPayloadLength, connectTimeout, ioThreads, maxConnections, maxConnectionsPerAddress,
        idleTimeout, payloadDigest,
        ScacheConf.empty().get(ScacheOptions.NETWORK_SERVER_CONNECTIONS_UNAUTHENTICATED_PER_ADDRESS_MAX),
        ScacheConf.empty().get(ScacheOptions.NETWORK_SERVER_UNAUTHENTICATED_IDLE_TIMEOUT),
        ScacheConf.empty().get(ScacheOptions.NETWORK_WRITE_BUFFER_LOW),
        ScacheConf.empty().get(ScacheOptions.NETWORK_WRITE_BUFFER_HIGH));
  }

  public static TransportSettings from(ScacheConf conf) {
    return new TransportSettings(conf.get(ScacheOptions.NETWORK_FRAME_META_MAX),
        conf.get(ScacheOptions.NETWORK_FRAME_PAYLOAD_MAX), conf.get(ScacheOptions.NETWORK_CONNECT_TIMEOUT),
        conf.get(ScacheOptions.NETWORK_IO_THREADS), conf.get(ScacheOptions.NETWORK_SERVER_CONNECTIONS_MAX),
        conf.get(ScacheOptions.NETWORK_SERVER_CONNECTIONS_PER_ADDRESS_MAX),
        conf.get(ScacheOptions.NETWORK_SERVER_IDLE_TIMEOUT), conf.get(ScacheOptions.SECURITY_PAYLOAD_DIGEST),
        conf.get(ScacheOptions.NETWORK_SERVER_CONNECTIONS_UNAUTHENTICATED_PER_ADDRESS_MAX),
        conf.get(ScacheOptions.NETWORK_SERVER_UNAUTHENTICATED_IDLE_TIMEOUT),
        conf.get(ScacheOptions.NETWORK_WRITE_BUFFER_LOW), conf.get(ScacheOptions.NETWORK_WRITE_BUFFER_HIGH));
  }

  public static TransportSettings defaults() {
    return from(ScacheConf.empty());
  }

  /** These settings with unauthenticated connections limited to {@code perAddress} and closed after {@code idle}. */
  public TransportSettings withUnauthenticated(int perAddress, Duration idle) {
    return new TransportSettings(maxMetaLength, maxPayloadLength, connectTimeout, ioThreads, maxConnections,
        maxConnectionsPerAddress, idleTimeout, payloadDigest, perAddress, idle, writeBufferLowBytes,
        writeBufferHighBytes);
  }

  /** The water marks a connection's channel is given: above the high one it is not writable until below the low. */
  public WriteBufferWaterMark writeBufferWaterMark() {
    return new WriteBufferWaterMark(writeBufferLowBytes, writeBufferHighBytes);
  }
}
