package org.scache.master.status;

import java.util.Locale;

/** Byte counts, ratios and durations as a person reads them. */
final class Sizes {
  private Sizes() {}

  static String bytes(long b) {
    if (b < 0) {
      return "?";
    }
    if (b < 1024) {
      return b + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double v = b;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, v >= 100 ? "%.0f %s" : "%.1f %s", v, units[u]);
  }

  static String percent(long part, long whole) {
    return whole <= 0 ? "-" : String.format(Locale.ROOT, "%.0f %%", 100.0 * part / whole);
  }

  static String ratio(long a, long b) {
    return b <= 0 ? "-" : String.format(Locale.ROOT, "%.2f", (double) a / b);
  }

  static String seconds(long millis) {
    return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
  }
}
