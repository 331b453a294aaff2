package org.scache.common.config;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsers for the value types configuration files use: sizes ("64m"), durations ("500ms"), and plain values. */
public final class ValueParsers {
  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmgt]?)(i?b)?", Pattern.CASE_INSENSITIVE);
  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)?", Pattern.CASE_INSENSITIVE);

  private ValueParsers() {}

  /** Bytes: a number with an optional binary unit k, m, g or t (e.g. {@code 512m}, {@code 1g}, {@code 4096}). */
  public static long bytes(String text) {
    Matcher m = SIZE.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("not a size: use a number with an optional unit k, m, g or t");
    }
    long n = Long.parseLong(m.group(1));
    int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "k" -> 10;
      case "m" -> 20;
      case "g" -> 30;
      case "t" -> 40;
      default -> 0;
    };
    if (shift > 0 && n > (Long.MAX_VALUE >> shift)) {
      throw new IllegalArgumentException("size too large");
    }
    return n << shift;
  }

  /** A duration: a number with an optional unit ms, s, m, h or d; a plain number is milliseconds. */
  public static Duration duration(String text) {
    Matcher m = DURATION.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("not a duration: use a number with an optional unit ms, s, m, h or d");
    }
    long n = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "ms" : m.group(2).toLowerCase(Locale.ROOT);
    try {
      Duration d = switch (unit) {
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        case "d" -> Duration.ofDays(n);
        default -> Duration.ofMillis(n);
      };
      d.toMillis();
      return d;
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("duration too long");
    }
  }

  public static boolean bool(String text) {
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "true", "yes", "on" -> true;
      case "false", "no", "off" -> false;
      default -> throw new IllegalArgumentException("not a boolean: use true or false");
    };
  }

  /** {@code host:port}, with the port in 1..65535. */
  public static String hostPort(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new IllegalArgumentException("not host:port");
    }
    int port = Integer.parseInt(text.substring(colon + 1));
    if (port <= 0 || port > 65535) {
      throw new IllegalArgumentException("port out of range");
    }
    return text;
  }
}
