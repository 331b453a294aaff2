package org.scache.client;

import java.nio.MappedByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.scache.common.auth.Credentials;
import org.scache.common.network.ClientConnection;
import org.scache.common.protocol.Unpin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection to the worker on this host and the segments of its memory it listed, mapped here;
 * the leases and pins the worker grants live as long as the connection. Pins are given back in
 * batches: one UNPIN in flight at a time, carrying every pin released meanwhile.
 */
final class WorkerSession {
  private static final Logger LOG = LoggerFactory.getLogger(WorkerSession.class);

  final ClientConnection connection;
  final List<MappedByteBuffer> segments;
  /** The bytes this client leases at a time. */
  final long leaseBytes;
  private final Optional<Credentials> credentials;
  private final Duration timeout;
  private final List<Long> toUnpin = new ArrayList<>();
  private boolean unpinning;

  WorkerSession(ClientConnection connection, List<MappedByteBuffer> segments, long leaseBytes,
      Optional<Credentials> credentials, Duration timeout) {
    this.connection = connection;
    this.segments = segments;
    this.leaseBytes = leaseBytes;
    this.credentials = credentials;
    this.timeout = timeout;
  }

  /** Unpins soon: with the UNPIN in flight's answer, or now if none is. */
  void unpin(List<Long> pinIds) {
    if (pinIds.isEmpty()) {
      return;
    }
    synchronized (this) {
      toUnpin.addAll(pinIds);
      if (unpinning) {
        return;
      }
      unpinning = true;
    }
    flushUnpins();
  }

  private void flushUnpins() {
    List<Long> ids;
    synchronized (this) {
      if (toUnpin.isEmpty()) {
        unpinning = false;
        return;
      }
      ids = new ArrayList<>(toUnpin);
      toUnpin.clear();
    }
    connection.call(new Unpin(ids), credentials, timeout).whenComplete((r, e) -> {
      if (r != null) {
        r.release();
      } else {
        LOG.debug("unpinning {} blocks failed: {}", ids.size(), e.toString());
      }
      flushUnpins();
    });
  }
}
