package org.scache.benchmarks.harness.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.scache.benchmarks.harness.Stats;

/**
 * A PNG of SCache's job time over the baseline's (the ratio, 1 = as fast) at each node link rate of a
 * sweep, slowest link first: every repetition's ratio as a dot, their median as a line, and a model's
 * prediction as a dashed line, so that where SCache starts to win can be read off.
 */
public final class RatioByLinkChart {
  private static final int WIDTH = 900;
  private static final int HEIGHT = 480;
  private static final int LEFT = 80;
  private static final int RIGHT = 40;
  private static final int TOP = 70;
  private static final int BOTTOM = 70;
  private static final Color MEASURED = new Color(0x4C78A8);
  private static final Color PREDICTED = new Color(0xE8740C);

  /** One link rate: its label, each repetition's ratio, and the predicted ratio (NaN when none). */
  public record Point(String link, List<Double> ratios, double predicted) {}

  private RatioByLinkChart() {}

  /**
   * Charts {@code points} in order; {@code predictedLabel} names the dashed line (empty: no legend for
   * it, when no point has a prediction). Nothing when empty.
   */
  public static void write(Path png, String title, List<Point> points, String predictedLabel) throws IOException {
    if (points.isEmpty()) {
      return;
    }
    double low = 1;
    double high = 1;
    for (Point p : points) {
      for (double r : p.ratios()) {
        low = Math.min(low, r);
        high = Math.max(high, r);
      }
      if (!Double.isNaN(p.predicted())) {
        low = Math.min(low, p.predicted());
        high = Math.max(high, p.predicted());
      }
    }
    low = Math.floor(low * 10 - 0.5) / 10;
    high = Math.ceil(high * 10 + 0.5) / 10;
    PngCanvas canvas = new PngCanvas(WIDTH, HEIGHT);
    Graphics2D g = canvas.graphics();
    try {
      int plotWidth = WIDTH - LEFT - RIGHT;
      int bottom = HEIGHT - BOTTOM;
      int plotHeight = bottom - TOP;
      g.setColor(Color.DARK_GRAY);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
      g.drawString(title, LEFT, 24);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      g.setColor(MEASURED);
      g.fillOval(LEFT, 38, 9, 9);
      g.setColor(Color.DARK_GRAY);
      g.drawString("measured (dots: repetitions, line: median)", LEFT + 14, 47);
      if (!predictedLabel.isEmpty()) {
        g.setColor(PREDICTED);
        g.drawLine(LEFT + 330, 43, LEFT + 350, 43);
        g.setColor(Color.DARK_GRAY);
        g.drawString(predictedLabel, LEFT + 356, 47);
      }
      for (double v = low; v <= high + 1e-9; v += 0.1) {
        int y = y(v, low, high, bottom, plotHeight);
        boolean one = Math.abs(v - 1) < 1e-9;
        g.setColor(one ? Color.GRAY : new Color(0xE6E6E6));
        g.drawLine(LEFT, y, LEFT + plotWidth, y);
        g.setColor(Color.DARK_GRAY);
        g.drawString(String.format(Locale.ROOT, "%.1f", v), LEFT - 34, y + 4);
      }
      g.drawString("SCache / baseline job time", 8, TOP - 10);
      int[] xs = new int[points.size()];
      for (int i = 0; i < points.size(); i++) {
        xs[i] = LEFT + (int) ((i + 0.5) * plotWidth / points.size());
        g.setColor(Color.DARK_GRAY);
        g.drawString(points.get(i).link(), xs[i] - 20, bottom + 18);
      }
      g.drawString("node link rate", LEFT + plotWidth / 2 - 40, bottom + 40);
      g.setStroke(new BasicStroke(2f));
      int lastX = -1;
      int lastY = -1;
      for (int i = 0; i < points.size(); i++) {
        Point p = points.get(i);
        g.setColor(MEASURED);
        for (double r : p.ratios()) {
          g.fillOval(xs[i] - 4, y(r, low, high, bottom, plotHeight) - 4, 9, 9);
        }
        double median = Stats.median(p.ratios());
        if (!Double.isNaN(median)) {
          int y = y(median, low, high, bottom, plotHeight);
          if (lastX >= 0) {
            g.drawLine(lastX, lastY, xs[i], y);
          }
          g.setColor(Color.DARK_GRAY);
          g.drawString(String.format(Locale.ROOT, "%.2f", median), xs[i] + 8, y - 6);
          lastX = xs[i];
          lastY = y;
        }
      }
      g.setColor(PREDICTED);
      g.setStroke(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 5f}, 0f));
      lastX = -1;
      for (int i = 0; i < points.size(); i++) {
        double v = points.get(i).predicted();
        if (Double.isNaN(v)) {
          continue;
        }
        int y = y(v, low, high, bottom, plotHeight);
        if (lastX >= 0) {
          g.drawLine(lastX, lastY, xs[i], y);
        }
        g.fillRect(xs[i] - 3, y - 3, 7, 7);
        lastX = xs[i];
        lastY = y;
      }
    } finally {
      g.dispose();
    }
    canvas.write(png);
  }

  private static int y(double v, double low, double high, int bottom, int plotHeight) {
    return bottom - (int) ((v - low) / (high - low) * plotHeight);
  }
}
