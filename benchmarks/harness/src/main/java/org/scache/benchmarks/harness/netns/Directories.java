package org.scache.benchmarks.harness.netns;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The run directories of the namespaced clusters. */
public final class Directories {
  private Directories() {}

  /** Deletes {@code p} and everything under it; nothing when it does not exist. */
  public static void deleteRecursively(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      s.sorted(Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
    }
  }
}
