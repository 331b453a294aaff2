package org.scache.common.network;

import java.time.Duration;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;

/** The limits and timeouts every SCache connection uses. */
public record TransportSettings(int maxMetaLength, long maxPayloadLength, Duration connectTimeout, int ioThreads) {

  public static TransportSettings from(ScacheConf conf) {
    return new TransportSettings(conf.get(ScacheOptions.NETWORK_FRAME_META_MAX),
        conf.get(ScacheOptions.NETWORK_FRAME_PAYLOAD_MAX), conf.get(ScacheOptions.NETWORK_CONNECT_TIMEOUT),
        conf.get(ScacheOptions.NETWORK_IO_THREADS));
  }

  public static TransportSettings defaults() {
    return from(ScacheConf.empty());
  }
}
