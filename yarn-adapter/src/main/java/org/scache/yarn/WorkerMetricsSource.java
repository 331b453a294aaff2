package org.scache.yarn;

import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;
import org.scache.worker.WorkerStatsCatalog;

/**
 * The NodeManager's SCache worker in Hadoop's metrics2, so that the monitoring a Hadoop cluster already
 * has (JMX, its sinks) sees it beside the NodeManager's own metrics: one record, {@code ScacheWorker},
 * with every figure of the worker's stats as a counter or gauge, named in metrics2's style
 * ({@code put.bytes} becomes {@code PutBytes}).
 */
final class WorkerMetricsSource implements MetricsSource {
  static final String RECORD = "ScacheWorker";

  private final Supplier<Map<String, Long>> stats;
  private final String workerId;

  WorkerMetricsSource(String workerId, Supplier<Map<String, Long>> stats) {
    this.workerId = workerId;
    this.stats = stats;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder record = collector.addRecord(RECORD).setContext("scache")
        .tag(Interns.info("WorkerId", "Identity of the SCache worker"), workerId);
    stats.get().forEach((key, value) -> {
      WorkerStatsCatalog.Entry e = WorkerStatsCatalog.of(key);
      if (e.counter()) {
        record.addCounter(Interns.info(WorkerStatsCatalog.metrics2Name(key), e.help()), value);
      } else {
        record.addGauge(Interns.info(WorkerStatsCatalog.metrics2Name(key), e.help()), value);
      }
    });
  }
}
