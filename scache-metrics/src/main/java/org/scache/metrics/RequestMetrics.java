package org.scache.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import org.scache.common.network.RequestObserver;
import org.scache.common.protocol.MessageType;
import org.scache.common.protocol.Status;

/**
 * The requests a daemon answered, by type: a latency histogram, and answers by status (so
 * {@code RETRY_LATER}, {@code STORE_FULL} or {@code AUTH_FAILED} answers can be counted and alerted on).
 */
public final class RequestMetrics implements RequestObserver {
  private final Histogram latency;
  private final Counter answers;
  private final Counter badFrames;

  /** Registers the metrics as {@code <prefix>_request_duration_seconds}, {@code _answers_total},
      {@code _bad_frames_total}. */
  public RequestMetrics(String prefix, PrometheusRegistry registry) {
    this.latency = Histogram.builder().name(prefix + "_request_duration_seconds").unit(Unit.SECONDS)
        .help("Time from a request's arrival to its answer, by request type (a put includes receiving its bytes).")
        .labelNames("request").classicOnly()
        .classicUpperBounds(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
            5, 10, 30)
        .register(registry);
    this.answers = Counter.builder().name(prefix + "_answers").labelNames("request", "status")
        .help("Answers sent, by request type and status (OK or the error's status).").register(registry);
    this.badFrames = Counter.builder().name(prefix + "_bad_frames")
        .help("Frames that could not be decoded into a request, by the status they were answered with.")
        .labelNames("status").register(registry);
  }

  @Override
  public void answered(MessageType request, Status status, long nanos) {
    latency.labelValues(request.name()).observe(nanos / 1e9);
    answers.labelValues(request.name(), status.name()).inc();
  }

  @Override
  public void refused(Status status) {
    badFrames.labelValues(status.name()).inc();
  }
}
