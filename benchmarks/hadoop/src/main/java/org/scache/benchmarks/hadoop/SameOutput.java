package org.scache.benchmarks.hadoop;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Checks that two jobs wrote the same output: the same part files, equal byte for byte. */
final class SameOutput {
  /** How much output was compared. */
  record Compared(int files, long bytes) {}

  private SameOutput() {}

  /** Compares the {@code part-*} files of two output directories; fails at the first difference. */
  static Compared check(Path expected, Path actual) throws IOException {
    List<String> names = partFiles(expected);
    List<String> other = partFiles(actual);
    if (!names.equals(other)) {
      throw new IllegalStateException("output files differ: " + names + " in " + expected + ", " + other + " in "
          + actual);
    }
    if (names.isEmpty()) {
      throw new IllegalStateException("no output files in " + expected);
    }
    long total = 0;
    byte[] a = new byte[1 << 20];
    byte[] b = new byte[1 << 20];
    for (String name : names) {
      Path x = expected.resolve(name);
      Path y = actual.resolve(name);
      if (Files.size(x) != Files.size(y)) {
        throw new IllegalStateException(name + " differs in size: " + Files.size(x) + " and " + Files.size(y));
      }
      try (InputStream in1 = Files.newInputStream(x); InputStream in2 = Files.newInputStream(y)) {
        long offset = 0;
        int n;
        while ((n = in1.readNBytes(a, 0, a.length)) > 0) {
          if (in2.readNBytes(b, 0, n) != n) {
            throw new IllegalStateException(name + " of " + actual + " ends early at " + offset);
          }
          int at = java.util.Arrays.mismatch(a, 0, n, b, 0, n);
          if (at >= 0) {
            throw new IllegalStateException(name + " differs at byte " + (offset + at));
          }
          offset += n;
        }
        total += offset;
      }
    }
    return new Compared(names.size(), total);
  }

  private static List<String> partFiles(Path dir) throws IOException {
    List<String> names = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("part-")).sorted().forEach(names::add);
    }
    return names;
  }
}
