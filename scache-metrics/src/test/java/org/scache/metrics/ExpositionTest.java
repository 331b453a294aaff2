package org.scache.metrics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.scache.common.protocol.MessageType;
import org.scache.common.protocol.Status;

class ExpositionTest {

  @Test
  void readings_andRequestMetrics_inThePrometheusTextFormat() throws Exception {
    PrometheusRegistry registry = new PrometheusRegistry();
    long[] puts = {3};
    registry.register(new ReadingsCollector(() -> List.of(
        Reading.counter("scache_test_put_blocks", "Blocks put.", puts[0]),
        Reading.gauge("scache_test_memory_used_bytes", "Memory in use.", 4096))));
    RequestMetrics requests = new RequestMetrics("scache_test", registry);
    requests.answered(MessageType.PUT_BLOCK, Status.OK, 2_000_000);
    requests.answered(MessageType.PUT_BLOCK, Status.RETRY_LATER, 1_000_000);
    requests.refused(Status.BAD_FRAME);
    puts[0] = 5;

    String text = new String(new PrometheusRoute(registry).serve(Map.of()).body(), StandardCharsets.UTF_8);
    assertTrue(text.contains("# TYPE scache_test_put_blocks_total counter\n"), text);
    assertTrue(text.contains("scache_test_put_blocks_total 5.0\n"), "read at scrape time:\n" + text);
    assertTrue(text.contains("# TYPE scache_test_memory_used_bytes gauge\nscache_test_memory_used_bytes 4096.0\n"),
        text);
    assertTrue(text.contains("scache_test_answers_total{request=\"PUT_BLOCK\",status=\"RETRY_LATER\"} 1.0"), text);
    assertTrue(text.contains("scache_test_request_duration_seconds_count{request=\"PUT_BLOCK\"} 2"), text);
    assertTrue(text.contains("scache_test_request_duration_seconds_bucket{request=\"PUT_BLOCK\",le=\"0.0025\"} 2"),
        text);
    assertTrue(text.contains("scache_test_bad_frames_total{status=\"BAD_FRAME\"} 1.0"), text);
  }
}
