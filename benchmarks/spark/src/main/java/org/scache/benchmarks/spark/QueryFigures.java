package org.scache.benchmarks.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One TPC-DS query's run, as its driver measured it: when it ran (epoch ms), its rows and their digest
 * (empty and a failure's first line if it failed), how many stages and tasks ran, the shuffle bytes its
 * stages wrote and read, the time its tasks waited for shuffle data (summed, and the longest), and its
 * tasks' CPU time. Kept as CSV, one line a query.
 */
record QueryFigures(String query, String shuffle, long start, long end, int rows, String digest, String failure,
    int stages, int tasks, long shuffleWriteBytes, long shuffleReadBytes, long fetchWaitTotalMs,
    long fetchWaitMaxMs, long cpuMs) {
  private static final String HEADER = "query,shuffle,start_ms,end_ms,rows,digest,failure,stages,tasks,"
      + "shuffle_write_bytes,shuffle_read_bytes,fetch_wait_total_ms,fetch_wait_max_ms,cpu_ms";

  long millis() {
    return end - start;
  }

  boolean failed() {
    return !failure.isEmpty();
  }

  static QueryFigures of(String query, String shuffle, long start, long end, int rows, String digest,
      String failure, StageFigures figures) {
    List<StageFigures.Task> tasks = figures.tasks().stream().filter(StageFigures.Task::successful).toList();
    return new QueryFigures(query, shuffle, start, end, rows, digest,
        failure.replace(',', ';').replace('\n', ' ').replace('\r', ' '), figures.stages().size(), tasks.size(),
        figures.stages().stream().mapToLong(StageFigures.Stage::shuffleWriteBytes).sum(),
        figures.stages().stream().mapToLong(StageFigures.Stage::shuffleReadBytes).sum(),
        tasks.stream().mapToLong(StageFigures.Task::fetchWaitMs).sum(),
        tasks.stream().mapToLong(StageFigures.Task::fetchWaitMs).max().orElse(0),
        tasks.stream().mapToLong(StageFigures.Task::cpuMs).sum());
  }

  String line() {
    return String.format(Locale.ROOT, "%-5s %-6s %7.1f s  %4d rows %s  %3d stages %5d tasks  shuffle %6.1f MiB"
        + "  fetch wait %6.1f s (max %5.2f)  cpu %6.1f s%s", query, shuffle, millis() / 1e3, rows, digest, stages,
        tasks, shuffleWriteBytes / 1048576.0, fetchWaitTotalMs / 1e3, fetchWaitMaxMs / 1e3, cpuMs / 1e3,
        failed() ? "  FAILED " + failure : "");
  }

  static void write(Path file, List<QueryFigures> queries) throws IOException {
    StringBuilder sb = new StringBuilder(HEADER).append('\n');
    for (QueryFigures q : queries) {
      sb.append(String.join(",", q.query, q.shuffle, Long.toString(q.start), Long.toString(q.end),
          Integer.toString(q.rows), q.digest, q.failure, Integer.toString(q.stages), Integer.toString(q.tasks),
          Long.toString(q.shuffleWriteBytes), Long.toString(q.shuffleReadBytes), Long.toString(q.fetchWaitTotalMs),
          Long.toString(q.fetchWaitMaxMs), Long.toString(q.cpuMs))).append('\n');
    }
    Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
  }

  static List<QueryFigures> read(Path file) throws IOException {
    List<QueryFigures> out = new ArrayList<>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", -1);
      if (f.length != 14) {
        throw new IOException(file + ": not a query's figures: " + line);
      }
      out.add(new QueryFigures(f[0], f[1], Long.parseLong(f[2]), Long.parseLong(f[3]), Integer.parseInt(f[4]), f[5],
          f[6], Integer.parseInt(f[7]), Integer.parseInt(f[8]), Long.parseLong(f[9]), Long.parseLong(f[10]),
          Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13])));
    }
    return out;
  }
}
