package org.scache.benchmarks.hadoop;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.scache.hadoop.MiniScacheYarnCluster;

/**
 * Text for the word count: lines of words drawn from a fixed vocabulary with Zipf's law (a few words
 * are very common, most are rare, as in prose), the same for the same size, in files of at most
 * {@link #FILE_BYTES} (one map each).
 */
final class TextInput {
  static final long FILE_BYTES = 8L << 20;
  private static final int VOCABULARY = 100_000;
  private static final int WORDS_PER_LINE = 12;

  private TextInput() {}

  /** Writes about {@code bytes} of text into {@code dir}, which it empties first. */
  static void write(long bytes, Path dir) throws IOException {
    MiniScacheYarnCluster.deleteRecursively(dir);
    Files.createDirectories(dir);
    String[] words = new String[VOCABULARY];
    double[] cumulative = new double[VOCABULARY];
    double sum = 0;
    for (int i = 0; i < VOCABULARY; i++) {
      words[i] = word(i);
      sum += 1.0 / (i + 1);
      cumulative[i] = sum;
    }
    SplittableRandom random = new SplittableRandom(42);
    long written = 0;
    for (int file = 0; written < bytes; file++) {
      long fileWritten = 0;
      try (BufferedWriter out = Files.newBufferedWriter(dir.resolve(String.format("text-%05d", file)),
          StandardCharsets.US_ASCII)) {
        StringBuilder line = new StringBuilder(128);
        while (fileWritten < FILE_BYTES && written + fileWritten < bytes) {
          line.setLength(0);
          for (int w = 0; w < WORDS_PER_LINE; w++) {
            int at = Arrays.binarySearch(cumulative, random.nextDouble() * sum);
            line.append(words[Math.min(VOCABULARY - 1, at < 0 ? -at - 1 : at)]).append(w + 1 < WORDS_PER_LINE ? ' '
                : '\n');
          }
          out.append(line);
          fileWritten += line.length();
        }
      }
      written += fileWritten;
    }
  }

  /** The {@code i}th word of the vocabulary: a pronounceable string, shorter for common words. */
  private static String word(int i) {
    String consonants = "bcdfghklmnprstvz";
    String vowels = "aeiou";
    StringBuilder w = new StringBuilder();
    int n = i;
    do {
      w.append(consonants.charAt(n % consonants.length()));
      n /= consonants.length();
      w.append(vowels.charAt(n % vowels.length()));
      n /= vowels.length();
    } while (n > 0);
    return w.toString();
  }
}
