package org.scache.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Exposes the figures a daemon already keeps (its counters and gauges) to Prometheus: one call of
 * {@code readings} per scrape, so every figure of one scrape comes from one moment.
 */
public final class ReadingsCollector implements MultiCollector {
  private final Supplier<List<Reading>> readings;

  public ReadingsCollector(Supplier<List<Reading>> readings) {
    this.readings = readings;
  }

  @Override
  public MetricSnapshots collect() {
    List<MetricSnapshot> out = new ArrayList<>();
    for (Reading r : readings.get()) {
      out.add(switch (r.kind()) {
        case COUNTER -> CounterSnapshot.builder().name(r.name()).help(r.help())
            .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(r.value()).build()).build();
        case GAUGE -> GaugeSnapshot.builder().name(r.name()).help(r.help())
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(r.value()).build()).build();
      });
    }
    return new MetricSnapshots(out);
  }
}
