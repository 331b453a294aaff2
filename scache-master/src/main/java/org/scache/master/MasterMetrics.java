package org.scache.master;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;
import java.util.function.Supplier;
import org.scache.metrics.Reading;
import org.scache.metrics.ReadingsCollector;
import org.scache.metrics.RequestMetrics;

/**
 * The master's Prometheus registry: its requests, the placements it made and how long they took, and
 * the size of its state, read at scrape time.
 */
final class MasterMetrics {
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final RequestMetrics requests = new RequestMetrics("scache_master", registry);
  private final Counter placements = Counter.builder().name("scache_master_placements")
      .help("Shuffles placed, by policy (heuristic-minheap: Algorithm 1; accumulated: Algorithm 2).")
      .labelNames("policy").register(registry);
  private final Counter reducesPlaced = Counter.builder().name("scache_master_reduces_placed")
      .help("Reduces given a worker and a round.").register(registry);
  private final Counter rounds = Counter.builder().name("scache_master_placement_rounds")
      .help("Placement rounds handed out: for each placed shuffle, the rounds of its busiest worker.")
      .register(registry);
  private final Counter reshuffles = Counter.builder().name("scache_master_reshuffles")
      .help("Reduces of earlier shuffles moved by a later shuffle of their stage (Algorithm 2).").register(registry);
  private final Counter movedAtMapEnd = Counter.builder().name("scache_master_reduces_moved_at_map_end")
      .help("Reduces moved once their shuffle's maps were done, to even out the workers' links.").register(registry);
  private final Counter readInPlace = Counter.builder().name("scache_master_shuffles_read_in_place")
      .help("Shuffles their applications read map by map where the maps ran (Spark SQL's local shuffle reads): the "
          + "workers stopped prefetching them.").register(registry);
  private final Counter copiesHeld = Counter.builder().name("scache_master_shuffles_copies_held")
      .help("Shuffles whose copies to their reduces' hosts their applications held back while they might still read "
          + "them where the maps ran (Spark SQL's joins that adaptive execution may turn into broadcast joins).")
      .register(registry);
  private final Histogram computeTime = Histogram.builder().name("scache_master_schedule_compute_seconds")
      .unit(Unit.SECONDS).help("Time the master took to predict and place one shuffle.").classicOnly()
      .classicUpperBounds(0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5).register(registry);
  private final Histogram delay = Histogram.builder().name("scache_master_schedule_delay_seconds").unit(Unit.SECONDS)
      .help("Time from a shuffle's submission to its placement (waiting for maps or samples, then computing).")
      .classicOnly().classicUpperBounds(0.01, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300).register(registry);
  private final Counter reduceReads = Counter.builder().name("scache_master_reduce_reads")
      .help("Reduce inputs read, as the workers reported them, by whether the reduce ran on its placed worker.")
      .labelNames("placed").register(registry);
  private final Counter reduceRemoteBytes = Counter.builder().name("scache_master_reduce_read_remote_bytes")
      .help("Bytes reduces fetched from other workers at read time (not prefetched), as the workers reported them.")
      .register(registry);

  private final Counter stateRecordsSkipped = Counter.builder().name("scache_master_state_records_skipped")
      .help("Records of the kept state (applications, shuffles, placements) a master did not take over when it read "
          + "them back: corrupt, cut short, or past a limit.").register(registry);

  MasterMetrics() {}

  /** Also exposes {@code gauges}, read at each scrape. */
  MasterMetrics withGauges(Supplier<List<Reading>> gauges) {
    registry.register(new ReadingsCollector(gauges));
    return this;
  }

  void placed(CoScheduler.Decision d, long computeNanos) {
    placements.labelValues(d.result().policy()).inc();
    reducesPlaced.inc(d.result().assignments().size());
    rounds.inc(d.result().assignments().stream().mapToInt(a -> a.round() + 1).max().orElse(0));
    reshuffles.inc(d.moves().size());
    computeTime.observe(computeNanos / 1e9);
    delay.observe(Math.max(0, d.madeAtMillis() - d.submissionTimeMillis()) / 1e3);
  }

  void movedAtMapEnd(int reduces) {
    movedAtMapEnd.inc(reduces);
  }

  void readInPlace() {
    readInPlace.inc();
  }

  void copiesHeld() {
    copiesHeld.inc();
  }

  void reduceRead(boolean onPlacedWorker, long remoteBytes) {
    reduceReads.labelValues(Boolean.toString(onPlacedWorker)).inc();
    reduceRemoteBytes.inc(remoteBytes);
  }

  void stateRecordsSkipped(long records) {
    stateRecordsSkipped.inc(records);
  }

  PrometheusRegistry registry() {
    return registry;
  }

  RequestMetrics requests() {
    return requests;
  }
}
