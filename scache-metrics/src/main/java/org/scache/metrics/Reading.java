package org.scache.metrics;

/**
 * One figure a daemon keeps, read at scrape time: its Prometheus name (without {@code _total}), its
 * help text, whether it only rises (a counter) or goes up and down (a gauge), and its value.
 */
public record Reading(String name, String help, Kind kind, double value) {
  public enum Kind { COUNTER, GAUGE }

  public static Reading counter(String name, String help, double value) {
    return new Reading(name, help, Kind.COUNTER, value);
  }

  public static Reading gauge(String name, String help, double value) {
    return new Reading(name, help, Kind.GAUGE, value);
  }
}
