package org.scache.benchmarks.spark;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.scache.benchmarks.harness.chart.PngCanvas;

/**
 * A PNG of each query's time on Spark's sort shuffle and on SCache, side by side (the paper's Fig. 16),
 * with SCache's ratio over each pair.
 */
final class QueryTimeChart {
  private static final int BAR = 14;
  private static final int GAP = 18;
  private static final int LEFT = 70;
  private static final int RIGHT = 30;
  private static final int TOP = 70;
  private static final int BOTTOM = 60;
  private static final int HEIGHT = 460;
  private static final Color SORT = new Color(0x9D9D9D);
  private static final Color SCACHE = new Color(0x4C78A8);

  /** A query's median time in seconds on each shuffle. */
  record Query(String name, double sortSeconds, double scacheSeconds) {}

  private QueryTimeChart() {}

  static void write(Path png, String title, List<Query> queries) throws IOException {
    if (queries.isEmpty()) {
      return;
    }
    double top = 1;
    for (Query q : queries) {
      top = Math.max(top, Math.max(finite(q.sortSeconds), finite(q.scacheSeconds)));
    }
    double step = tickStep(top);
    top = Math.ceil(top / step) * step;
    int width = Math.max(LEFT + 40 + 9 * title.length(), LEFT + RIGHT + queries.size() * (2 * BAR + GAP) + GAP);
    PngCanvas canvas = new PngCanvas(width, HEIGHT);
    Graphics2D g = canvas.graphics();
    try {
      int bottom = HEIGHT - BOTTOM;
      int plotHeight = bottom - TOP;
      g.setColor(Color.DARK_GRAY);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
      g.drawString(title, LEFT, 24);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      legend(g, LEFT, 46, SORT, "Spark's sort shuffle");
      legend(g, LEFT + 170, 46, SCACHE, "SCache (ratio above the pair)");
      for (double v = 0; v <= top + step / 2; v += step) {
        int y = bottom - (int) Math.round(plotHeight * v / top);
        g.setColor(new Color(0xE5E5E5));
        g.drawLine(LEFT, y, width - RIGHT, y);
        g.setColor(Color.DARK_GRAY);
        g.drawString(String.format(Locale.ROOT, "%.0f s", v), 10, y + 4);
      }
      int x = LEFT + GAP;
      for (Query q : queries) {
        int sortHeight = (int) Math.round(plotHeight * finite(q.sortSeconds) / top);
        int scacheHeight = (int) Math.round(plotHeight * finite(q.scacheSeconds) / top);
        g.setColor(SORT);
        g.fillRect(x, bottom - sortHeight, BAR, sortHeight);
        g.setColor(SCACHE);
        g.fillRect(x + BAR, bottom - scacheHeight, BAR, scacheHeight);
        g.setColor(Color.DARK_GRAY);
        g.drawString(q.name, x, bottom + 16);
        if (q.sortSeconds > 0 && Double.isFinite(q.scacheSeconds)) {
          g.drawString(String.format(Locale.ROOT, "%.2f", q.scacheSeconds / q.sortSeconds), x,
              bottom - Math.max(sortHeight, scacheHeight) - 4);
        }
        x += 2 * BAR + GAP;
      }
      g.drawLine(LEFT, bottom, width - RIGHT, bottom);
    } finally {
      g.dispose();
    }
    canvas.write(png);
  }

  private static void legend(Graphics2D g, int x, int y, Color color, String label) {
    g.setColor(color);
    g.fillRect(x, y - 10, 12, 12);
    g.setColor(Color.DARK_GRAY);
    g.drawString(label, x + 18, y);
  }

  private static double finite(double v) {
    return Double.isFinite(v) ? v : 0;
  }

  /** A round step (1, 2 or 5 times a power of ten) that cuts {@code 0..top} into at most 7 parts. */
  private static double tickStep(double top) {
    double power = Math.pow(10, Math.floor(Math.log10(top)));
    for (double m : new double[] {0.5, 1, 2, 5, 10}) {
      if (top / (m * power) <= 7) {
        return m * power;
      }
    }
    return 10 * power;
  }
}
