package org.scache.benchmarks.hadoop;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code --name value} options, checked against the ones a program knows, each with its default and help. */
public final class Options {
  public record Option(String name, String defaultValue, String help) {}

  private final String usage;
  private final Map<String, Option> known = new LinkedHashMap<>();
  private final Map<String, String> given = new LinkedHashMap<>();

  public Options(String usage, Option... options) {
    this.usage = usage;
    for (Option o : options) {
      known.put(o.name, o);
    }
  }

  /** Reads {@code args}; false when they ask for the help, which has then been printed. */
  public boolean parse(String[] args) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--help") || a.equals("-h")) {
        System.out.println(help());
        return false;
      }
      String name = a.startsWith("--") ? a.substring(2) : null;
      String value = null;
      if (name != null && name.contains("=")) {
        value = name.substring(name.indexOf('=') + 1);
        name = name.substring(0, name.indexOf('='));
      }
      if (name == null || !known.containsKey(name)) {
        throw new IllegalArgumentException("unknown option " + a + "\n" + help());
      }
      if (value == null) {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException("--" + name + " needs a value\n" + help());
        }
        value = args[++i];
      }
      given.put(name, value);
    }
    return true;
  }

  public String get(String name) {
    Option o = known.get(name);
    if (o == null) {
      throw new IllegalArgumentException("no option " + name);
    }
    return given.getOrDefault(name, o.defaultValue);
  }

  public int getInt(String name) {
    String v = get(name);
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " takes a whole number, not " + v, e);
    }
  }

  public String help() {
    StringBuilder sb = new StringBuilder(usage).append("\noptions:\n");
    for (Option o : known.values()) {
      sb.append(String.format("  --%-14s %s", o.name + " X", o.help));
      if (o.defaultValue != null && !o.defaultValue.isEmpty()) {
        sb.append(" (default ").append(o.defaultValue).append(')');
      }
      sb.append('\n');
    }
    return sb.toString();
  }
}
