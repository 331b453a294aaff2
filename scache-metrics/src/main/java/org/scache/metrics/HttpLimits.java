package org.scache.metrics;

import java.time.Duration;
import org.scache.common.Checks;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;

/**
 * What bounds a daemon's HTTP endpoint, so that no slow or numerous client can hold it: how long a
 * request may take to arrive, how long a connection may sit idle, how many connections it keeps open
 * in all and from one address, and how many threads build answers.
 */
public record HttpLimits(Duration requestTimeout, Duration idleTimeout, int maxConnections,
    int maxConnectionsPerAddress, int threads) {

  public HttpLimits {
    Checks.require(requestTimeout.toMillis() > 0, "an HTTP request timeout must be positive: %s", requestTimeout);
    Checks.require(idleTimeout.toMillis() > 0, "an HTTP idle timeout must be positive: %s", idleTimeout);
    Checks.require(maxConnections > 0 && maxConnectionsPerAddress > 0,
        "HTTP connection limits must be positive: %s in all, %s per address", maxConnections,
        maxConnectionsPerAddress);
    Checks.require(threads > 0, "an HTTP endpoint needs a thread: %s", threads);
  }

  public static HttpLimits from(ScacheConf conf) {
    return new HttpLimits(conf.get(ScacheOptions.NETWORK_HTTP_REQUEST_TIMEOUT),
        conf.get(ScacheOptions.NETWORK_HTTP_IDLE_TIMEOUT), conf.get(ScacheOptions.NETWORK_HTTP_CONNECTIONS_MAX),
        conf.get(ScacheOptions.NETWORK_HTTP_CONNECTIONS_PER_ADDRESS_MAX),
        conf.get(ScacheOptions.NETWORK_HTTP_THREADS));
  }

  public static HttpLimits defaults() {
    return from(ScacheConf.empty());
  }

  /** Requests that may wait for a thread; more are answered 503. */
  int queuedRequests() {
    return threads * 8;
  }
}
