package org.scache.master.status;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The master's status page: plain HTML and inline SVG charts, built on the server, no script and no
 * build step. Every string from outside (ids, host names, reasons) is escaped.
 */
public final class StatusPage {
  private static final String STYLE = """
      body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
      h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
      table{border-collapse:collapse;margin:.5em 0}
      td,th{padding:.2em .7em;border-bottom:1px solid #ddd;text-align:left;white-space:nowrap}
      td.note{white-space:normal}
      td.n,th.n{text-align:right}.off{color:#b00}.muted{color:#777}
      .bar{display:inline-block;height:.8em;background:#4a7ebb}.track{display:inline-block;width:10em;background:#eee}
      figure{margin:1em 0}figcaption{color:#555;font-size:.9em}""";
  private static final String PREDICTED = "#9bb8d9";
  private static final String ACTUAL = "#2f5f98";

  private StatusPage() {}

  public static String cluster(ClusterView c) {
    StringBuilder b = head("SCache master", true);
    b.append("<h1>SCache master</h1><p id=\"role\">").append(esc(c.role())).append("</p><p id=\"summary\">")
        .append(c.workers().size()).append(" live workers, ")
        .append(c.applications()).append(" applications, ").append(c.shuffles().size()).append(" shuffles</p>");
    b.append("<h2>Workers</h2><table id=\"workers\"><tr><th>worker</th><th>address</th><th class=n>reserved</th>"
        + "<th class=n>used</th><th>memory</th><th class=n>spilled</th><th class=n>spill files</th>"
        + "<th class=n>last heartbeat</th></tr>");
    for (ClusterView.WorkerView w : c.workers()) {
      int pct = w.reservedBytes() <= 0 ? 0 : (int) Math.min(100, 100 * w.usedBytes() / w.reservedBytes());
      b.append("<tr><td>").append(esc(w.workerId())).append("</td><td>").append(esc(w.address()))
          .append("</td><td class=n>").append(Sizes.bytes(w.reservedBytes())).append("</td><td class=n>")
          .append(Sizes.bytes(w.usedBytes())).append("</td><td><span class=track><span class=bar style=\"width:")
          .append(pct).append("%\"></span></span> ").append(pct).append(" %</td><td class=n>")
          .append(Sizes.bytes(w.spilledBytes())).append("</td><td class=n>").append(Sizes.bytes(w.spillFileBytes()))
          .append("</td><td class=n>").append(Sizes.seconds(w.lastSeenAgoMillis())).append(" ago</td></tr>");
    }
    b.append("</table><h2>Shuffles</h2><table id=\"shuffles\"><tr><th>application</th><th class=n>shuffle</th>"
        + "<th class=n>maps</th><th class=n>reduces</th><th>state</th><th>policy</th><th>predictor</th></tr>");
    for (ClusterView.ShuffleSummary s : c.shuffles()) {
      b.append("<tr><td>").append(esc(s.appId())).append("</td><td class=n><a href=\"shuffle?app=")
          .append(esc(URLEncoder.encode(s.appId(), StandardCharsets.UTF_8))).append("&amp;id=").append(s.shuffleId())
          .append("\">").append(s.shuffleId()).append("</a></td><td class=n>").append(s.finishedMaps()).append(" / ")
          .append(s.maps()).append("</td><td class=n>").append(s.reduces()).append("</td><td>").append(esc(s.state()))
          .append("</td><td>").append(esc(s.policy())).append("</td><td>").append(esc(s.predictor()))
          .append("</td></tr>");
    }
    b.append("</table><p class=muted>Metrics for Prometheus: <a href=\"metrics\">/metrics</a>. "
        + "The same as text: <a href=\"text/status\">/text/status</a>.</p>");
    return tail(b);
  }

  public static String shuffle(ShuffleView v) {
    String title = "Shuffle " + v.shuffleId() + " of " + v.appId();
    StringBuilder b = head(title, false);
    b.append("<p><a href=\"./\">cluster</a></p><h1>").append(esc(title)).append("</h1>");
    b.append("<p id=\"shape\">").append(v.maps()).append(" maps (").append(v.finishedMaps()).append(" finished), ")
        .append(v.reduces()).append(" reduces, ").append(esc(v.partitioner())).append(" partitioner.</p>");
    if (v.prediction().isEmpty()) {
      b.append("<p id=\"prediction\">Not placed yet: the master waits for enough finished maps or for samples.</p>");
    } else {
      ShuffleView.Prediction p = v.prediction().get();
      b.append("<h2>Prediction</h2><p id=\"prediction\">Predictor: <b>").append(esc(p.predictor())).append("</b>. ")
          .append(esc(p.reason())).append(".</p><p id=\"placement\">Placed by <b>").append(esc(p.policy()))
          .append("</b> after ").append(p.mapsObserved()).append(" of ").append(v.maps()).append(" maps had finished");
      v.placedAtMillis().ifPresent(t -> b.append(", ").append(Sizes.seconds(t - v.submittedAtMillis()))
          .append(" after submission"));
      b.append("; ").append(p.slotsPerWorker()).append(" reduce(s) per worker at once.</p>");
      b.append("<p id=\"makespan\">Makespan (the largest load of one worker): predicted ")
          .append(Sizes.bytes(v.predictedMakespan())).append(" against a lower bound of ")
          .append(Sizes.bytes(v.predictedLowerBound())).append(" (")
          .append(Sizes.ratio(v.predictedMakespan(), v.predictedLowerBound())).append("×)");
      if (v.actualKnown()) {
        b.append("; actual ").append(Sizes.bytes(v.actualMakespan())).append(" against ")
            .append(Sizes.bytes(v.actualLowerBound())).append(" (")
            .append(Sizes.ratio(v.actualMakespan(), v.actualLowerBound())).append("×)");
      }
      b.append(".</p>");
      b.append("<figure>").append(sizeChart(v)).append("<figcaption>Predicted (light) and actual (dark) input of "
          + "each reduce").append(v.actualKnown() ? "" : "; actual sizes once every map has finished")
          .append(".</figcaption></figure>");
      b.append("<figure>").append(loadChart(v)).append("<figcaption>Load per worker, predicted (light) and actual "
          + "(dark); the line is the lower bound.</figcaption></figure>");
    }
    ShuffleView.Traffic t = v.traffic();
    long prefetched = t.prefetchedDuringMaps() + t.prefetchedAfterMaps();
    b.append("<h2>Where the bytes went</h2><p id=\"traffic\">Prefetched ").append(Sizes.bytes(t.prefetchedDuringMaps()))
        .append(" during the map stage and ").append(Sizes.bytes(t.prefetchedAfterMaps())).append(" after it (")
        .append(Sizes.percent(t.prefetchedDuringMaps(), prefetched)).append(" during). Reduces read ")
        .append(Sizes.bytes(t.localRead())).append(" from their worker's memory and fetched ")
        .append(Sizes.bytes(t.remoteRead())).append(" at read time. ").append(t.reducesRead()).append(" of ")
        .append(v.reduces()).append(" reduces read, <span id=\"offnode\">").append(t.reducesOffNode())
        .append(" off their placed worker</span>.</p>");
    if (!v.nodes().isEmpty()) {
      b.append("<h2>Placement</h2><table id=\"nodes\"><tr><th>worker</th><th class=n>rounds</th>"
          + "<th class=n>predicted load</th><th class=n>actual load</th><th>reduces</th></tr>");
      for (ShuffleView.NodeView n : v.nodes()) {
        b.append("<tr><td>").append(esc(n.workerId())).append("</td><td class=n>").append(n.rounds())
            .append("</td><td class=n>").append(Sizes.bytes(n.predictedLoad())).append("</td><td class=n>")
            .append(v.actualKnown() ? Sizes.bytes(n.actualLoad()) : "?").append("</td><td>")
            .append(esc(n.reduces().toString())).append("</td></tr>");
      }
      b.append("</table>");
    }
    b.append("<h2>Reduces</h2><table id=\"reduces\"><tr><th class=n>reduce</th><th class=n>predicted</th>"
        + "<th class=n>actual</th><th class=n>error</th><th>placed on</th><th class=n>round</th><th>read on</th>"
        + "<th class=n>read locally</th><th class=n>fetched</th><th>note</th></tr>");
    for (ShuffleView.ReduceView r : v.reduceViews()) {
      String error = r.actualBytes() > 0 ? String.format(Locale.ROOT, "%+.0f %%",
          100.0 * (r.predictedBytes() - r.actualBytes()) / r.actualBytes()) : "-";
      b.append(r.offNodeReason().isPresent() ? "<tr class=off>" : "<tr>").append("<td class=n>").append(r.reduceId())
          .append("</td><td class=n>").append(Sizes.bytes(r.predictedBytes())).append("</td><td class=n>")
          .append(Sizes.bytes(r.actualBytes())).append("</td><td class=n>").append(error).append("</td><td>")
          .append(esc(r.placedWorker())).append("</td><td class=n>").append(r.round() < 0 ? "-" : r.round())
          .append("</td><td>").append(esc(r.ranOn().orElse("-"))).append("</td><td class=n>")
          .append(r.ranOn().isPresent() ? Sizes.bytes(r.localBytes()) : "-").append("</td><td class=n>")
          .append(r.ranOn().isPresent() ? Sizes.bytes(r.remoteBytes()) : "-").append("</td><td class=note>")
          .append(esc(r.offNodeReason().orElse(""))).append("</td></tr>");
    }
    b.append("</table>");
    return tail(b);
  }

  /** Grouped bars: predicted and actual input per reduce. */
  private static String sizeChart(ShuffleView v) {
    List<ShuffleView.ReduceView> rs = v.reduceViews();
    long max = 1;
    for (ShuffleView.ReduceView r : rs) {
      max = Math.max(max, Math.max(r.predictedBytes(), r.actualBytes()));
    }
    int slot = Math.max(6, Math.min(40, 900 / Math.max(1, rs.size())));
    int width = 60 + slot * rs.size();
    int height = 200;
    StringBuilder svg = svgOpen("sizes", width, height + 40, "predicted and actual reduce sizes");
    axis(svg, max, height);
    for (int i = 0; i < rs.size(); i++) {
      ShuffleView.ReduceView r = rs.get(i);
      int x = 60 + i * slot;
      bar(svg, x + 1, slot / 2 - 1, r.predictedBytes(), max, height, PREDICTED,
          "reduce " + r.reduceId() + " predicted " + Sizes.bytes(r.predictedBytes()));
      if (r.actualBytes() >= 0) {
        bar(svg, x + slot / 2, slot / 2 - 1, r.actualBytes(), max, height, ACTUAL,
            "reduce " + r.reduceId() + " actual " + Sizes.bytes(r.actualBytes()));
      }
      if (rs.size() <= 40 || i % 5 == 0) {
        svg.append("<text x=\"").append(x + slot / 2).append("\" y=\"").append(height + 25)
            .append("\" font-size=\"10\" text-anchor=\"middle\">").append(r.reduceId()).append("</text>");
      }
    }
    return svg.append("</svg>").toString();
  }

  /** Bars per worker: predicted and actual load, with the lower bound as a line. */
  private static String loadChart(ShuffleView v) {
    List<ShuffleView.NodeView> ns = v.nodes();
    long bound = v.actualKnown() ? v.actualLowerBound() : v.predictedLowerBound();
    long max = Math.max(1, bound);
    for (ShuffleView.NodeView n : ns) {
      max = Math.max(max, Math.max(n.predictedLoad(), n.actualLoad()));
    }
    int slot = 90;
    int width = 60 + slot * Math.max(1, ns.size());
    int height = 160;
    StringBuilder svg = svgOpen("loads", width, height + 45, "load per worker");
    axis(svg, max, height);
    for (int i = 0; i < ns.size(); i++) {
      ShuffleView.NodeView n = ns.get(i);
      int x = 60 + i * slot;
      bar(svg, x + 10, 34, n.predictedLoad(), max, height, PREDICTED,
          n.workerId() + " predicted " + Sizes.bytes(n.predictedLoad()));
      if (v.actualKnown()) {
        bar(svg, x + 45, 34, n.actualLoad(), max, height, ACTUAL,
            n.workerId() + " actual " + Sizes.bytes(n.actualLoad()));
      }
      String label = n.workerId().length() > 14 ? "…" + n.workerId().substring(n.workerId().length() - 13)
          : n.workerId();
      svg.append("<text x=\"").append(x + 45).append("\" y=\"").append(height + 25)
          .append("\" font-size=\"10\" text-anchor=\"middle\">").append(esc(label)).append("</text>");
    }
    int y = 10 + height - (int) (height * (double) bound / max);
    svg.append("<line x1=\"55\" x2=\"").append(width).append("\" y1=\"").append(y).append("\" y2=\"").append(y)
        .append("\" stroke=\"#c33\" stroke-dasharray=\"4 3\"><title>lower bound ").append(Sizes.bytes(bound))
        .append("</title></line>");
    return svg.append("</svg>").toString();
  }

  private static StringBuilder svgOpen(String id, int width, int height, String label) {
    return new StringBuilder("<svg id=\"").append(id).append("\" xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        .append(width).append("\" height=\"").append(height).append("\" role=\"img\" aria-label=\"").append(label)
        .append("\">");
  }

  private static void axis(StringBuilder svg, long max, int height) {
    svg.append("<line x1=\"55\" x2=\"55\" y1=\"10\" y2=\"").append(10 + height).append("\" stroke=\"#999\"/>");
    for (int k = 0; k <= 4; k++) {
      int y = 10 + height - height * k / 4;
      svg.append("<text x=\"50\" y=\"").append(y + 4).append("\" font-size=\"10\" text-anchor=\"end\">")
          .append(Sizes.bytes(max * k / 4)).append("</text>");
    }
  }

  private static void bar(StringBuilder svg, int x, int w, long value, long max, int height, String color,
      String title) {
    int h = (int) Math.round(height * (double) value / max);
    svg.append("<rect x=\"").append(x).append("\" y=\"").append(10 + height - h).append("\" width=\"")
        .append(Math.max(1, w)).append("\" height=\"").append(h).append("\" fill=\"").append(color)
        .append("\"><title>").append(esc(title)).append("</title></rect>");
  }

  private static StringBuilder head(String title, boolean refresh) {
    StringBuilder b = new StringBuilder("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
        .append(esc(title)).append("</title>");
    if (refresh) {
      b.append("<meta http-equiv=\"refresh\" content=\"10\">");
    }
    return b.append("<style>").append(STYLE).append("</style></head><body>");
  }

  private static String tail(StringBuilder b) {
    return b.append("</body></html>").toString();
  }

  static String esc(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (char ch : s.toCharArray()) {
      switch (ch) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(ch);
      }
    }
    return out.toString();
  }
}
