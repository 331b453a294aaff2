package org.scache.benchmarks.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Sizes as the options take them (256m, 1g, 512k, or bytes) and as the reports print them (binary units). */
public final class ByteSize {
  public static final long KIB = 1024;
  public static final long MIB = 1024 * KIB;
  public static final long GIB = 1024 * MIB;

  private ByteSize() {}

  /** {@code 256m} is 256 MiB; {@code 1g}, {@code 1.5g}, {@code 512k} and a plain number of bytes also work. */
  public static long parse(String text) {
    String s = text.trim().toLowerCase(Locale.ROOT);
    long unit = 1;
    if (s.endsWith("ib")) {
      s = s.substring(0, s.length() - 2);
    } else if (s.endsWith("b")) {
      s = s.substring(0, s.length() - 1);
    }
    if (s.endsWith("k")) {
      unit = KIB;
    } else if (s.endsWith("m")) {
      unit = MIB;
    } else if (s.endsWith("g")) {
      unit = GIB;
    }
    if (unit != 1) {
      s = s.substring(0, s.length() - 1);
    }
    try {
      double value = Double.parseDouble(s);
      if (value <= 0) {
        throw new IllegalArgumentException("a size must be positive: " + text);
      }
      return Math.round(value * unit);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a size: " + text + " (examples: 256m, 1g)", e);
    }
  }

  /** Comma-separated sizes, each as {@link #parse} takes it. */
  public static List<Long> parseList(String text) {
    List<Long> sizes = new ArrayList<>();
    for (String s : text.split(",")) {
      sizes.add(parse(s));
    }
    return sizes;
  }

  /** 256 MiB, 1.5 GiB, 12.3 MiB, 800 KiB, 17 B. */
  public static String format(long bytes) {
    if (bytes >= GIB) {
      return trim(bytes / (double) GIB) + " GiB";
    }
    if (bytes >= MIB) {
      return trim(bytes / (double) MIB) + " MiB";
    }
    if (bytes >= KIB) {
      return trim(bytes / (double) KIB) + " KiB";
    }
    return bytes + " B";
  }

  /** A short form for file names: 256m, 1g, 1536m. */
  public static String tag(long bytes) {
    if (bytes % GIB == 0) {
      return bytes / GIB + "g";
    }
    if (bytes % MIB == 0) {
      return bytes / MIB + "m";
    }
    return Long.toString(bytes);
  }

  private static String trim(double v) {
    String pattern = v >= 100 || v == Math.rint(v) ? "%.0f" : "%.1f";
    return String.format(Locale.ROOT, pattern, v);
  }
}
