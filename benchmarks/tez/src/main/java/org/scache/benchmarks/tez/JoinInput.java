package org.scache.benchmarks.tez;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * The two inputs SortMergeJoinExample joins: lines of 100 bytes whose first 16 are a key drawn from twice as many
 * keys as each side has lines, the rest derived from the key, so that a key common to both sides is the same line on
 * both and about two fifths of the lines have a partner.
 */
final class JoinInput {
  static final String LEFT = "left";
  static final String RIGHT = "right";
  private static final int LINE = 100;

  private JoinInput() {}

  /** Writes (once) {@code bytes} in all, half a side, {@code files} files in all, into {@code dir}. */
  static Path write(Path dir, long bytes, int files) throws IOException {
    String tag = bytes + "/" + files;
    if (InputDirs.current(dir, tag)) {
      return dir;
    }
    long linesPerSide = bytes / 2 / LINE;
    int perSide = Math.max(1, files / 2);
    writeSide(dir.resolve(LEFT), linesPerSide, perSide, 2 * linesPerSide, 7);
    writeSide(dir.resolve(RIGHT), linesPerSide, files - perSide, 2 * linesPerSide, 11);
    InputDirs.written(dir, tag);
    return dir;
  }

  private static void writeSide(Path dir, long lines, int files, long keys, long seed) throws IOException {
    Files.createDirectories(dir);
    Random rnd = new Random(seed);
    long perFile = (lines + files - 1) / files;
    long written = 0;
    StringBuilder line = new StringBuilder(LINE);
    for (int f = 0; f < files; f++) {
      try (BufferedWriter w = Files.newBufferedWriter(dir.resolve(String.format("part-%03d.txt", f)),
          StandardCharsets.US_ASCII)) {
        for (long i = 0; i < perFile && written < lines; i++, written++) {
          long key = Math.floorMod(rnd.nextLong(), keys);
          line.setLength(0);
          line.append(String.format("%016d", key));
          long h = key * 0x9E3779B97F4A7C15L;
          while (line.length() < LINE - 1) {
            h ^= h >>> 29;
            h *= 0xBF58476D1CE4E5B9L;
            line.append(Long.toHexString(h));
          }
          line.setLength(LINE - 1);
          line.append('\n');
          w.write(line.toString());
        }
      }
    }
  }
}
