package org.scache.benchmarks.hadoop;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * What SCache's side of each application master logged (its placement, when it requested the reduces
 * and why, where each reduce ran), copied out of the NodeManagers' log directories into a benchmark's
 * results: a cluster's logs last only until the next cluster starts in the same directory, and the
 * release of the reduces is what a run's timeline is read against. An application master's container
 * is its attempt's first ({@code container_..._NN_000001}); its lines from {@code org.scache} classes
 * are kept, under a heading with the application's name.
 */
final class ApplicationMasterLines {
  static final String LOGGER_PREFIX = " org.scache.";

  private ApplicationMasterLines() {}

  /** The SCache lines of every application master's syslog under {@code nmLogs}, application by application. */
  static String collect(Path nmLogs) throws IOException {
    if (!Files.isDirectory(nmLogs)) {
      return "";
    }
    List<Path> syslogs;
    try (Stream<Path> files = Files.find(nmLogs, 4, (p, a) -> a.isRegularFile()
        && p.getFileName().toString().equals("syslog") && p.getParent().getFileName().toString().endsWith("_000001"))) {
      syslogs = files.sorted(Comparator.comparing((Path p) -> p.getParent().getFileName().toString())).toList();
    }
    StringBuilder out = new StringBuilder();
    for (Path syslog : syslogs) {
      StringBuilder lines = new StringBuilder();
      try (BufferedReader r = Files.newBufferedReader(syslog, StandardCharsets.ISO_8859_1)) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          if (line.contains(LOGGER_PREFIX)) {
            lines.append(line).append('\n');
          }
        }
      }
      if (lines.length() > 0) {
        out.append("== ").append(syslog.getParent().getParent().getFileName()).append('\n').append(lines);
      }
    }
    return out.toString();
  }
}
