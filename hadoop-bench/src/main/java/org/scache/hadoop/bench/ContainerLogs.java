package org.scache.hadoop.bench;

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
 * {@code yyyy-MM-dd HH:mm:ss,SSS}, in this machine's time zone). The container's directories without a
 * syslog (in its NodeManager's other log directories, and its working directory) are passed over.
 */
final class ContainerLogs {
  private static final DateTimeFormatter LOG4J = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");

  private ContainerLogs() {}

  /** The epoch millisecond of the first line of {@code container}'s syslog under {@code root}, or 0. */
  static long jvmUp(Path root, String container) {
    if (container == null || container.isEmpty() || root == null || !Files.isDirectory(root)) {
      return 0;
    }
    // a container has a directory in each of its NodeManager's log and local directories; one holds its syslog
    try (Stream<Path> dirs = Files.find(root, 6, (p, a) -> a.isDirectory() && p.getFileName().toString()
        .equals(container) && Files.isReadable(p.resolve("syslog")))) {
      Path dir = dirs.findFirst().orElse(null);
      if (dir == null) {
        return 0;
      }
      try (BufferedReader r = Files.newBufferedReader(dir.resolve("syslog"), StandardCharsets.ISO_8859_1)) {
        String line = r.readLine();
        return line == null ? 0 : firstTime(line);
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      return 0;
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
