package org.scache.master;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.scache.master.status.ClusterView;
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

  /**
   * The routes over the leading term's views ({@code views} is empty while the master stands by, and
   * the pages then say so and who leads: {@code role}).
   */
  static Map<String, HttpEndpoint.Route> of(Supplier<Optional<StatusViews>> views, Supplier<String> role,
      MasterMetrics metrics) {
    Map<String, HttpEndpoint.Route> routes = new LinkedHashMap<>();
    routes.put("/", q -> Response.html(StatusPage.cluster(cluster(views, role))));
    routes.put("/shuffle", q -> shuffle(views, role, q, v -> Response.html(StatusPage.shuffle(v))));
    routes.put("/text/status", q -> Response.text(200, StatusText.cluster(cluster(views, role))));
    routes.put("/text/shuffle", q -> shuffle(views, role, q, v -> Response.text(200, StatusText.shuffle(v))));
    routes.put("/metrics", new PrometheusRoute(metrics.registry()));
    return routes;
  }

  private static ClusterView cluster(Supplier<Optional<StatusViews>> views, Supplier<String> role) {
    String r = role.get();
    return views.get().map(v -> v.cluster(r))
        .orElseGet(() -> new ClusterView(System.currentTimeMillis(), r, List.of(), 0, List.of()));
  }

  private static Response shuffle(Supplier<Optional<StatusViews>> leading, Supplier<String> role,
      Map<String, String> query, Function<ShuffleView, Response> page) {
    Optional<StatusViews> current = leading.get();
    if (current.isEmpty()) {
      return Response.text(503, "this master is a " + role.get() + "; ask the leader\n");
    }
    StatusViews views = current.get();
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
