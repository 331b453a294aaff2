package org.scache.worker;

import java.util.LinkedHashMap;
import java.util.Map;
import org.scache.common.network.ScacheServer;
import org.scache.worker.cluster.PeerReceiveBuffer;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.prefetch.Prefetcher;
import org.scache.worker.store.WorkerStorage;

/**
 * A worker's stats as {@code GET_WORKER_STATS} and the metrics serve them, described by
 * {@link WorkerStatsCatalog}: its counters, its storage's gauges, how far its prefetching lags and its
 * server's connections.
 */
final class WorkerStats {
  private final WorkerCounters counters;
  private final WorkerStorage storage;
  private final Prefetcher prefetcher;
  private final ScacheServer server;
  private final PeerReceiveBuffer receiveBuffer;

  WorkerStats(WorkerCounters counters, WorkerStorage storage, Prefetcher prefetcher, ScacheServer server,
      PeerReceiveBuffer receiveBuffer) {
    this.receiveBuffer = receiveBuffer;
    this.counters = counters;
    this.storage = storage;
    this.prefetcher = prefetcher;
    this.server = server;
  }

  Map<String, Long> snapshot() {
    Map<String, Long> m = new LinkedHashMap<>(counters.snapshot());
    m.putAll(storage.gauges());
    long[] backlog = prefetcher.backlog();
    m.put("prefetch.backlog.blocks", backlog[0]);
    m.put("prefetch.backlog.bytes", backlog[1]);
    m.put("prefetch.inflight", (long) prefetcher.inflight());
    m.put("connections.open", (long) server.openConnections());
    m.put("connections.refused", server.refusedConnections());
    m.put("connections.idle.closed", server.idleConnectionsClosed());
    m.put("network.master.round.trip.micros", receiveBuffer.shortestRoundTripMicros());
    m.put("fetch.receive.buffer.bytes", (long) receiveBuffer.current());
    return m;
  }
}
