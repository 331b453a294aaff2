package org.scache.benchmarks.spark;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.scache.benchmarks.harness.chart.PngCanvas;
import org.scache.benchmarks.harness.chart.Ticks;

/**
 * A PNG of the tasks of a few runs (one panel each): a row per task slot of each host, map tasks blue,
 * reduce tasks orange with their shuffle fetch wait lighter at their start, other tasks (sampling) grey;
 * seconds since the job started on the x axis.
 */
final class SparkTimelineChart {
  private static final int WIDTH = 1100;
  private static final int LEFT = 80;
  private static final int RIGHT = 30;
  private static final int ROW = 14;
  private static final Color MAP = new Color(0x4C78A8);
  private static final Color REDUCE = new Color(0xE8740C);
  private static final Color WAIT = new Color(0xF8C99A);
  private static final Color OTHER = new Color(0xBBBBBB);

  /** One task as the driver wrote it ({@link RunFigures#tasksCsv}). */
  record TaskSpan(String kind, String host, long launch, long finish, long fetchWaitMs) {}

  /** One panel: a run's label, its start and end (epoch ms), and its tasks. */
  record Panel(String label, long start, long end, List<TaskSpan> tasks) {}

  private SparkTimelineChart() {}

  static List<TaskSpan> readTasks(Path csv) throws IOException {
    List<TaskSpan> out = new ArrayList<>();
    List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",");
      if (f.length >= 8 && Boolean.parseBoolean(f[7])) {
        out.add(new TaskSpan(f[0], f[3], Long.parseLong(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6])));
      }
    }
    return out;
  }

  static void write(Path png, String title, List<Panel> panels) throws IOException {
    if (panels.isEmpty()) {
      return;
    }
    long span = panels.stream().mapToLong(p -> p.end() - p.start()).max().orElse(1);
    List<Map<String, List<List<TaskSpan>>>> lanes = panels.stream().map(p -> lanes(p.tasks())).toList();
    int height = 60;
    for (Map<String, List<List<TaskSpan>>> l : lanes) {
      height += 50 + l.values().stream().mapToInt(List::size).sum() * ROW + l.size() * 6;
    }
    PngCanvas canvas = new PngCanvas(WIDTH, height);
    Graphics2D g = canvas.graphics();
    try {
      g.setColor(Color.DARK_GRAY);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
      g.drawString(title + ": tasks per host (map blue, reduce orange, its fetch wait light, sampling grey)", LEFT - 60,
          24);
      int top = 50;
      for (int i = 0; i < panels.size(); i++) {
        top = panel(g, panels.get(i), lanes.get(i), top, span) + 20;
      }
    } finally {
      g.dispose();
    }
    canvas.write(png);
  }

  /** Per host, lanes of tasks that do not overlap, each task in the first lane free at its launch. */
  private static Map<String, List<List<TaskSpan>>> lanes(List<TaskSpan> tasks) {
    Map<String, List<List<TaskSpan>>> byHost = new TreeMap<>();
    List<TaskSpan> sorted = new ArrayList<>(tasks);
    sorted.sort(Comparator.comparingLong(TaskSpan::launch));
    for (TaskSpan t : sorted) {
      List<List<TaskSpan>> hostLanes = byHost.computeIfAbsent(t.host(), h -> new ArrayList<>());
      List<TaskSpan> free = null;
      for (List<TaskSpan> lane : hostLanes) {
        if (lane.get(lane.size() - 1).finish() <= t.launch()) {
          free = lane;
          break;
        }
      }
      if (free == null) {
        free = new ArrayList<>();
        hostLanes.add(free);
      }
      free.add(t);
    }
    return new LinkedHashMap<>(byHost);
  }

  private static int panel(Graphics2D g, Panel p, Map<String, List<List<TaskSpan>>> lanes, int top, long span) {
    int plotWidth = WIDTH - LEFT - RIGHT;
    g.setColor(Color.DARK_GRAY);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
    g.drawString(String.format(Locale.ROOT, "%s: %.1f s", p.label(), (p.end() - p.start()) / 1e3), LEFT, top + 12);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    int y = top + 20;
    for (Map.Entry<String, List<List<TaskSpan>>> host : lanes.entrySet()) {
      g.setColor(Color.DARK_GRAY);
      g.drawString(host.getKey(), 10, y + ROW);
      for (List<TaskSpan> lane : host.getValue()) {
        for (TaskSpan t : lane) {
          int x0 = LEFT + (int) ((double) (t.launch() - p.start()) / span * plotWidth);
          int x1 = LEFT + (int) ((double) (t.finish() - p.start()) / span * plotWidth);
          g.setColor(switch (t.kind()) {
            case "map" -> MAP;
            case "reduce" -> REDUCE;
            default -> OTHER;
          });
          g.fillRect(x0, y + 1, Math.max(1, x1 - x0 - 1), ROW - 2);
          if (t.kind().equals("reduce") && t.fetchWaitMs() > 0) {
            int xw = LEFT + (int) ((double) (t.launch() + t.fetchWaitMs() - p.start()) / span * plotWidth);
            g.setColor(WAIT);
            g.fillRect(x0, y + 1, Math.max(1, Math.min(xw, x1) - x0 - 1), ROW - 2);
          }
        }
        y += ROW;
      }
      y += 6;
      g.setColor(new Color(0xE6E6E6));
      g.drawLine(LEFT, y - 3, LEFT + plotWidth, y - 3);
    }
    g.setColor(Color.DARK_GRAY);
    double step = Ticks.step(span / 1000.0);
    for (double s = 0; s <= span / 1000.0; s += step) {
      int px = LEFT + (int) (s * 1000 / span * plotWidth);
      g.drawString(String.format(Locale.ROOT, "%.0f", s), px - 6, y + 12);
    }
    return y + 16;
  }
}
