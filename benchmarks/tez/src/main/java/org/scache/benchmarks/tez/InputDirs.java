package org.scache.benchmarks.tez;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.scache.benchmarks.harness.netns.Directories;

/**
 * A program's input directory, written once and kept across invocations: a marker file (skipped by
 * FileInputFormat, whose name starts with '_') says for which size and file count it was written.
 */
final class InputDirs {
  private static final String DONE = "_COMPLETE";

  private InputDirs() {}

  /** Whether {@code dir} holds what was written for {@code tag}; if not, it is emptied and created, to be written. */
  static boolean current(Path dir, String tag) throws IOException {
    Path done = dir.resolve(DONE);
    if (Files.exists(done) && Files.readString(done, StandardCharsets.UTF_8).equals(tag)) {
      return true;
    }
    Directories.deleteRecursively(dir);
    Files.createDirectories(dir);
    return false;
  }

  /** Marks {@code dir} as written for {@code tag}. */
  static void written(Path dir, String tag) throws IOException {
    Files.writeString(dir.resolve(DONE), tag, StandardCharsets.UTF_8);
  }
}
