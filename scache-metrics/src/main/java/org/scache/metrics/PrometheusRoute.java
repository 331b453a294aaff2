package org.scache.metrics;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;

/** {@code /metrics}: a registry's metrics in the Prometheus text format. */
public final class PrometheusRoute implements HttpEndpoint.Route {
  private final PrometheusRegistry registry;
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

  public PrometheusRoute(PrometheusRegistry registry) {
    this.registry = registry;
  }

  @Override
  public HttpEndpoint.Response serve(Map<String, String> query) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
    writer.write(out, registry.scrape(), EscapingScheme.UNDERSCORE_ESCAPING);
    return new HttpEndpoint.Response(200, writer.getContentType(), out.toByteArray());
  }
}
