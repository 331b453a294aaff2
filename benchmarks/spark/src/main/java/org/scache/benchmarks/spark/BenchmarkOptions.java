package org.scache.benchmarks.spark;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The command line of a benchmark: {@code --name value} pairs over its defaults, and {@code --help}.
 * An option whose name ends in {@code -opts} (JVM options) may come several times; its values add up.
 */
final class BenchmarkOptions {
  private BenchmarkOptions() {}

  /**
   * {@code args} over {@code defaults}; empty, after printing the defaults, when {@code --help} is among them.
   *
   * @throws IllegalArgumentException on an option the defaults do not name, or one without a value
   */
  static Optional<Map<String, String>> parse(String[] args, Map<String, String> defaults) {
    Map<String, String> o = new LinkedHashMap<>(defaults);
    Set<String> given = new HashSet<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--help")) {
        System.out.println("options (defaults): " + defaults);
        return Optional.empty();
      }
      String name = args[i].replaceFirst("^--", "");
      if (!o.containsKey(name) || i + 1 >= args.length) {
        throw new IllegalArgumentException("unknown option or no value: " + args[i] + "; options: "
            + defaults.keySet());
      }
      String value = args[++i];
      // JVM options add up, since the command line is split at spaces: one option per occurrence
      boolean adds = name.endsWith("-opts") && !given.add(name);
      o.put(name, adds ? o.get(name) + " " + value : value);
    }
    return Optional.of(o);
  }
}
