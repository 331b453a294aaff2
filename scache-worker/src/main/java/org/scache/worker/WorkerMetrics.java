package org.scache.worker;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.scache.metrics.Reading;
import org.scache.metrics.ReadingsCollector;
import org.scache.metrics.RequestMetrics;

/** A worker's Prometheus registry: its stats, read at scrape time, and its requests' latencies and answers. */
final class WorkerMetrics {
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final RequestMetrics requests = new RequestMetrics("scache_worker", registry);

  WorkerMetrics(Supplier<Map<String, Long>> stats) {
    registry.register(new ReadingsCollector(() -> readings(stats.get())));
  }

  static List<Reading> readings(Map<String, Long> stats) {
    List<Reading> out = new ArrayList<>(stats.size());
    stats.forEach((key, value) -> {
      WorkerStatsCatalog.Entry e = WorkerStatsCatalog.of(key);
      String name = WorkerStatsCatalog.prometheusName(key);
      out.add(e.counter() ? Reading.counter(name, e.help(), value) : Reading.gauge(name, e.help(), value));
    });
    return out;
  }

  PrometheusRegistry registry() {
    return registry;
  }

  RequestMetrics requests() {
    return requests;
  }
}
