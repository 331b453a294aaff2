package org.scache.master;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.scache.master.status.ShuffleView;
import org.scache.master.status.StatusPage;
import org.scache.master.status.StatusText;
import org.scache.metrics.HttpEndpoint;
import org.scache.metrics.HttpEndpoint.Response;
import org.scache.metrics.PrometheusRoute;

/**
 * The master's HTTP pages: {@code /} and {@code /shuffle?app=&id=} for a browser, {@code /text/status}
 * and {@code /text/shuffle?app=&id=} for {@code bin/scache}, and {@code /metrics} for Prometheus.
 */
final class StatusRoutes {
  private StatusRoutes() {}

  static Map<String, HttpEndpoint.Route> of(StatusViews views, MasterMetrics metrics) {
    Map<String, HttpEndpoint.Route> routes = new LinkedHashMap<>();
    routes.put("/", q -> Response.html(StatusPage.cluster(views.cluster())));
    routes.put("/shuffle", q -> shuffle(views, q, v -> Response.html(StatusPage.shuffle(v))));
    routes.put("/text/status", q -> Response.text(200, StatusText.cluster(views.cluster())));
    routes.put("/text/shuffle", q -> shuffle(views, q, v -> Response.text(200, StatusText.shuffle(v))));
    routes.put("/metrics", new PrometheusRoute(metrics.registry()));
    return routes;
  }

  private static Response shuffle(StatusViews views, Map<String, String> query, Function<ShuffleView, Response> page) {
    String app = query.getOrDefault("app", "");
    String id = query.getOrDefault("id", "");
    if (app.isEmpty() || id.isEmpty()) {
      return Response.text(400, "give the shuffle as ?app=APPLICATION&id=SHUFFLE\n");
    }
    int shuffleId;
    try {
      shuffleId = Integer.parseInt(id);
    } catch (NumberFormatException e) {
      return Response.text(400, "shuffle id is not a number: " + id + "\n");
    }
    Optional<ShuffleView> v = views.shuffle(app, shuffleId);
    return v.map(page).orElseGet(() -> Response.text(404, "the master knows no shuffle " + shuffleId
        + " of application " + app + "\n"));
  }
}
