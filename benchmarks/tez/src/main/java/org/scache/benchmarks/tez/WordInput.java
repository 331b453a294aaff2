package org.scache.benchmarks.tez;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/** The words the benchmark counts, and the lines a word count wrote. */
final class WordInput {
  /** Distinct words: a summation output of about a tenth of the tokenizers' at 256 MiB. */
  static final int VOCABULARY = 2_000_000;
  private static final int WORDS_PER_LINE = 10;

  private WordInput() {}

  /**
   * Writes {@code files} text files of about {@code bytes} in all into {@code dir}, words drawn from
   * {@link #VOCABULARY} with a fixed seed; a directory already written for the same size is kept.
   */
  static Path write(Path dir, long bytes, int files) throws IOException {
    String tag = bytes + "/" + files;
    if (InputDirs.current(dir, tag)) {
      return dir;
    }
    Random rnd = new Random(42);
    long perFile = bytes / files;
    for (int f = 0; f < files; f++) {
      long written = 0;
      try (BufferedWriter w = Files.newBufferedWriter(dir.resolve(String.format("part-%03d.txt", f)),
          StandardCharsets.US_ASCII)) {
        StringBuilder line = new StringBuilder();
        while (written < perFile) {
          line.setLength(0);
          for (int i = 0; i < WORDS_PER_LINE; i++) {
            line.append(i == 0 ? "" : " ").append('w').append(rnd.nextInt(VOCABULARY));
          }
          line.append('\n');
          w.write(line.toString());
          written += line.length();
        }
      }
    }
    InputDirs.written(dir, tag);
    return dir;
  }

  /** Every line of the part files under {@code dir}, sorted. */
  static List<String> sortedLines(Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : files.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList()) {
        lines.addAll(Files.readAllLines(p, StandardCharsets.UTF_8));
      }
    }
    Collections.sort(lines);
    return lines;
  }
}
