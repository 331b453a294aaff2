package org.scache.benchmarks.harness.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.benchmarks.harness.netns.LinkSampler;

/**
 * A PNG of the rate at which each node sent over its link during a few runs (one panel each, as a job
 * on one shuffle above the same job on the other), seconds since the run's start on the x axis, with the
 * end of its map stage marked: where the shuffle's bytes cross the network.
 */
public final class LinkRateChart {
  private static final int WIDTH = 1100;
  private static final int PANEL = 230;
  private static final int LEFT = 80;
  private static final int RIGHT = 30;
  private static final Color[] NODE_COLORS = {new Color(0x4C78A8), new Color(0xE8740C), new Color(0x54A24B),
      new Color(0xB279A2), new Color(0x9D755D), new Color(0x72B7B2)};

  /**
   * One run's panel: its label (the shuffle), its start, the end of its map stage and its end (epoch ms),
   * and the bytes the nodes sent during and after its map stage.
   */
  public record Run(String label, long start, long mapEnd, long end, long sentDuringMaps, long sentAfterMaps) {}

  private LinkRateChart() {}

  /** Charts {@code pair} (one panel per run, in order) under {@code title}; nothing when it is empty. */
  public static void write(Path png, String title, List<Run> pair, List<LinkSampler.Sample> samples)
      throws IOException {
    if (pair.isEmpty()) {
      return;
    }
    List<String> nodes = samples.stream().map(LinkSampler.Sample::node).distinct().sorted().toList();
    long span = pair.stream().mapToLong(r -> r.end() - r.start()).max().orElse(1);
    double peak = 1;
    for (Run r : pair) {
      for (String node : nodes) {
        for (double[] p : rates(samples, node, r)) {
          peak = Math.max(peak, p[1]);
        }
      }
    }
    int height = 70 + pair.size() * (PANEL + 60);
    PngCanvas canvas = new PngCanvas(WIDTH, height);
    Graphics2D g = canvas.graphics();
    try {
      g.setColor(Color.DARK_GRAY);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
      g.drawString(title + ": MB/s each node sent", LEFT, 24);
      int x = LEFT;
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      for (int i = 0; i < nodes.size(); i++) {
        g.setColor(NODE_COLORS[i % NODE_COLORS.length]);
        g.fillRect(x, 36, 14, 10);
        g.setColor(Color.DARK_GRAY);
        g.drawString(nodes.get(i), x + 18, 46);
        x += 90;
      }
      int top = 70;
      for (Run r : pair) {
        panel(g, r, samples, nodes, top, span, peak);
        top += PANEL + 60;
      }
    } finally {
      g.dispose();
    }
    canvas.write(png);
  }

  private static void panel(Graphics2D g, Run r, List<LinkSampler.Sample> samples, List<String> nodes,
      int top, long span, double peak) {
    int plotWidth = WIDTH - LEFT - RIGHT;
    int plotTop = top + 20;
    int bottom = plotTop + PANEL;
    g.setColor(Color.DARK_GRAY);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
    g.drawString(String.format(Locale.ROOT, "%s: %s sent during the maps, %s after", r.label(),
        ByteSize.format(r.sentDuringMaps()), ByteSize.format(r.sentAfterMaps())), LEFT, top + 12);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    g.setColor(new Color(0xE6E6E6));
    for (int i = 0; i <= 4; i++) {
      int y = bottom - i * PANEL / 4;
      g.drawLine(LEFT, y, LEFT + plotWidth, y);
    }
    g.setColor(Color.DARK_GRAY);
    for (int i = 0; i <= 4; i++) {
      int y = bottom - i * PANEL / 4;
      g.drawString(String.format(Locale.ROOT, "%.0f", peak * i / 4 / 1e6), LEFT - 40, y + 4);
    }
    double step = Ticks.step(span / 1000.0);
    for (double s = 0; s <= span / 1000.0; s += step) {
      int px = LEFT + (int) (s * 1000 / span * plotWidth);
      g.drawString(String.format(Locale.ROOT, "%.0f", s), px - 6, bottom + 16);
    }
    g.drawString("seconds since the job started", LEFT + plotWidth - 200, bottom + 32);
    int mapEnd = LEFT + (int) ((double) (r.mapEnd() - r.start()) / span * plotWidth);
    g.setStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f, 4f}, 0f));
    g.drawLine(mapEnd, plotTop, mapEnd, bottom);
    g.drawString("maps done", mapEnd + 4, plotTop + 10);
    g.setStroke(new BasicStroke(1.8f));
    for (int i = 0; i < nodes.size(); i++) {
      g.setColor(NODE_COLORS[i % NODE_COLORS.length]);
      int lastX = -1;
      int lastY = -1;
      for (double[] p : rates(samples, nodes.get(i), r)) {
        int px = LEFT + (int) ((p[0] - r.start()) / span * plotWidth);
        int py = bottom - (int) (p[1] / peak * PANEL);
        if (lastX >= 0) {
          g.drawLine(lastX, lastY, px, py);
        }
        lastX = px;
        lastY = py;
      }
    }
    g.setStroke(new BasicStroke(1f));
  }

  /** (time, bytes per second sent) of {@code node} between consecutive samples within the run. */
  private static List<double[]> rates(List<LinkSampler.Sample> samples, String node, Run r) {
    List<double[]> out = new ArrayList<>();
    LinkSampler.Sample prev = null;
    for (LinkSampler.Sample s : samples) {
      if (!s.node().equals(node) || s.time() < r.start() || s.time() > r.end()) {
        continue;
      }
      if (prev != null && s.time() > prev.time()) {
        out.add(new double[] {s.time(), (s.sent() - prev.sent()) * 1000.0 / (s.time() - prev.time())});
      }
      prev = s;
    }
    return out;
  }
}
