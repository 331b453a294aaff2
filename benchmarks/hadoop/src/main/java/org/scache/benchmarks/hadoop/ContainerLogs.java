package org.scache.benchmarks.hadoop;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.stream.Stream;

/**
 * The task containers' logs under a NodeManager log directory tree ({@code <root>/.../<application>/
 * <container>/syslog}): when a task's JVM was up is the time of its syslog's first line (log4j's
 * {@code yyyy-MM-dd HH:mm:ss,SSS}, in this machine's time zone), and when a reduce task began its shuffle
 * the time of the line where Hadoop's ReduceTask names its shuffle consumer ({@value #SHUFFLE_START}). The
 * container's directories without a syslog (in its NodeManager's other log directories, and its working
 * directory) are passed over.
 */
final class ContainerLogs {
  private static final DateTimeFormatter LOG4J = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");
  /** What ReduceTask logs just before it starts its shuffle consumer. */
  static final String SHUFFLE_START = "Using ShuffleConsumerPlugin";

  private ContainerLogs() {}

  /** What one task container's syslog says: when its JVM was up and, for a reduce, its shuffle began (0: unknown). */
  record TaskLog(long jvmUp, long shuffleStart) {
    static final TaskLog UNKNOWN = new TaskLog(0, 0);
  }

  /** What {@code container}'s syslog under {@code root} says; {@link TaskLog#UNKNOWN} when it is not found. */
  static TaskLog read(Path root, String container) {
    if (container == null || container.isEmpty() || root == null || !Files.isDirectory(root)) {
      return TaskLog.UNKNOWN;
    }
    // a container has a directory in each of its NodeManager's log and local directories; one holds its syslog
    try (Stream<Path> dirs = Files.find(root, 6, (p, a) -> a.isDirectory() && p.getFileName().toString()
        .equals(container) && Files.isReadable(p.resolve("syslog")))) {
      Path dir = dirs.findFirst().orElse(null);
      if (dir == null) {
        return TaskLog.UNKNOWN;
      }
      try (BufferedReader r = Files.newBufferedReader(dir.resolve("syslog"), StandardCharsets.ISO_8859_1)) {
        String line = r.readLine();
        long jvmUp = line == null ? 0 : firstTime(line);
        long shuffleStart = 0;
        for (; line != null && shuffleStart == 0; line = r.readLine()) {
          if (line.contains(SHUFFLE_START)) {
            shuffleStart = firstTime(line);
          }
        }
        return new TaskLog(jvmUp, shuffleStart);
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      return TaskLog.UNKNOWN;
    }
  }

  static long firstTime(String line) {
    if (line.length() < 23) {
      return 0;
    }
    try {
      return LocalDateTime.parse(line.substring(0, 23), LOG4J).atZone(ZoneId.systemDefault()).toInstant()
          .toEpochMilli();
    } catch (DateTimeParseException e) {
      return 0;
    }
  }
}
