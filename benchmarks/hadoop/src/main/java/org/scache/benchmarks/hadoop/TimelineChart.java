package org.scache.benchmarks.hadoop;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Shape;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.scache.benchmarks.harness.chart.PngCanvas;
import org.scache.benchmarks.harness.chart.Ticks;

/**
 * A PNG of the stage timelines of TeraSort jobs, one panel per job on one time axis (seconds since each
 * job's submission): a horizontal bar per task attempt, maps and reduces in different colours, the
 * shuffle part of each reduce hatched, failed or killed attempts grey, and lines where the map stage and
 * the job end. Drawn with java.awt in headless mode.
 */
final class TimelineChart {
  private static final Color MAP = new Color(0x4C78A8);
  private static final Color REDUCE = new Color(0xE8740C);
  private static final Color SHUFFLE = new Color(0xF8C99A);
  private static final Color SHUFFLE_HATCH = new Color(0xE8740C);
  private static final Color FAILED = new Color(0xBBBBBB);
  private static final Color GRID = new Color(0xE6E6E6);
  private static final Color TEXT = new Color(0x222222);

  private static final int WIDTH = 1400;
  private static final int LEFT = 90;
  private static final int RIGHT = 40;
  private static final int TITLE = 54;
  private static final int PANEL_HEADER = 40;
  private static final int AXIS = 34;
  private static final int GAP = 18;

  private TimelineChart() {}

  /** Draws {@code jobs} (e.g. Hadoop's shuffle, then SCache) under {@code title} into {@code png}. */
  static void write(Path png, String title, List<JobFigures> jobs) throws IOException {
    int maxRows = jobs.stream().mapToInt(j -> j.attempts().size()).max().orElse(1);
    int rowHeight = Math.max(3, Math.min(14, 380 / Math.max(1, maxRows)));
    long span = jobs.stream().mapToLong(j -> j.finish() - j.submit()).max().orElse(1);
    int height = TITLE;
    for (JobFigures j : jobs) {
      height += PANEL_HEADER + j.attempts().size() * rowHeight + AXIS + GAP;
    }
    PngCanvas canvas = new PngCanvas(WIDTH, height);
    Graphics2D g = canvas.graphics();
    try {
      g.setColor(TEXT);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
      g.drawString(title, LEFT, 22);
      legend(g, LEFT, 42);
      int y = TITLE;
      for (JobFigures j : jobs) {
        y = panel(g, j, y, rowHeight, span);
      }
    } finally {
      g.dispose();
    }
    canvas.write(png);
  }

  private static int panel(Graphics2D g, JobFigures job, int top, int rowHeight, long span) {
    int plotWidth = WIDTH - LEFT - RIGHT;
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
    g.setColor(TEXT);
    g.drawString(String.format(Locale.ROOT, "%s: job %.1f s, map stage %.1f s, reduce stage %.1f s, "
        + "median shuffle wait %.1f s", job.shuffle().label(), job.jobSeconds(), job.mapStageSeconds(),
        job.reduceStageSeconds(), job.medianShuffleWaitSeconds()), LEFT, top + 17);
    int rowsTop = top + PANEL_HEADER;
    int rows = job.attempts().size();
    int rowsBottom = rowsTop + rows * rowHeight;

    // grid and axis
    double step = Ticks.step(span / 1000.0);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    for (double t = 0; t <= span / 1000.0 + 1e-9; t += step) {
      int x = LEFT + (int) Math.round(t * 1000 / span * plotWidth);
      g.setColor(GRID);
      g.drawLine(x, rowsTop, x, rowsBottom);
      g.setColor(TEXT);
      g.drawLine(x, rowsBottom, x, rowsBottom + 4);
      String label = step < 1 ? String.format(Locale.ROOT, "%.1f", t) : String.format(Locale.ROOT, "%.0f", t);
      g.drawString(label, x - g.getFontMetrics().stringWidth(label) / 2, rowsBottom + 17);
    }
    g.drawLine(LEFT, rowsBottom, LEFT + plotWidth, rowsBottom);
    String axis = "seconds since the job was submitted";
    g.drawString(axis, LEFT + plotWidth - g.getFontMetrics().stringWidth(axis), rowsBottom + 30);

    // bars
    int bar = Math.max(2, rowHeight - (rowHeight >= 6 ? 2 : 1));
    int row = 0;
    boolean mapsLabelled = false;
    boolean reducesLabelled = false;
    for (AttemptSpan a : job.attempts()) {
      int y = rowsTop + row * rowHeight;
      double x0 = LEFT + (double) (a.start() - job.submit()) / span * plotWidth;
      double x1 = LEFT + (double) (Math.max(a.finish(), a.start()) - job.submit()) / span * plotWidth;
      Rectangle2D whole = new Rectangle2D.Double(x0, y, Math.max(1, x1 - x0), bar);
      if (!a.succeeded()) {
        g.setColor(FAILED);
        g.fill(whole);
      } else if (a.map()) {
        g.setColor(MAP);
        g.fill(whole);
      } else {
        g.setColor(REDUCE);
        g.fill(whole);
        if (a.shuffleWaitMs() >= 0) {
          double xs = LEFT + (double) (a.shuffleFinish() - job.submit()) / span * plotWidth;
          Rectangle2D shuffle = new Rectangle2D.Double(x0, y, Math.max(1, xs - x0), bar);
          g.setColor(SHUFFLE);
          g.fill(shuffle);
          hatch(g, shuffle);
        }
      }
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
      g.setColor(TEXT);
      if (a.map() && !mapsLabelled) {
        g.drawString("maps (" + job.maps() + ")", 8, y + 10);
        mapsLabelled = true;
      } else if (!a.map() && !reducesLabelled) {
        g.drawString("reduces (" + job.reduces() + ")", 8, y + 10);
        reducesLabelled = true;
      }
      row++;
    }

    // where the map stage and the job end
    marker(g, job.lastMapFinish() - job.submit(), span, plotWidth, rowsTop, rowsBottom, "maps done", true);
    marker(g, job.finish() - job.submit(), span, plotWidth, rowsTop, rowsBottom, "job done", false);
    return rowsBottom + AXIS + GAP;
  }

  private static void marker(Graphics2D g, long at, long span, int plotWidth, int top, int bottom, String label,
      boolean dashed) {
    int x = LEFT + (int) Math.round((double) at / span * plotWidth);
    g.setColor(TEXT);
    g.setStroke(dashed
        ? new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f, 3f}, 0f)
        : new BasicStroke(1.5f));
    g.drawLine(x, top - 4, x, bottom);
    g.setStroke(new BasicStroke(1f));
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    int w = g.getFontMetrics().stringWidth(label);
    g.drawString(label, x + 3 + w <= WIDTH - 4 ? x + 3 : x - 3 - w, top - 6);
  }

  private static void hatch(Graphics2D g, Rectangle2D r) {
    Shape clip = g.getClip();
    g.clip(r);
    g.setColor(SHUFFLE_HATCH);
    for (double x = r.getX() - r.getHeight(); x < r.getMaxX(); x += 5) {
      g.drawLine((int) x, (int) r.getMaxY(), (int) (x + r.getHeight()), (int) r.getY());
    }
    g.setClip(clip);
  }

  private static void legend(Graphics2D g, int x, int y) {
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    x = legendItem(g, x, y, MAP, false, "map attempt");
    x = legendItem(g, x, y, REDUCE, false, "reduce attempt");
    x = legendItem(g, x, y, SHUFFLE, true, "its shuffle (start to shuffle finish)");
    legendItem(g, x, y, FAILED, false, "failed or killed attempt");
  }

  private static int legendItem(Graphics2D g, int x, int y, Color c, boolean hatched, String label) {
    Rectangle2D box = new Rectangle2D.Double(x, y - 10, 26, 11);
    g.setColor(c);
    g.fill(box);
    if (hatched) {
      hatch(g, box);
    }
    g.setColor(TEXT);
    g.drawString(label, x + 32, y);
    return x + 32 + g.getFontMetrics().stringWidth(label) + 24;
  }
}
