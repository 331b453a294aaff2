package org.scache.common.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * Declares one module's typed configuration keys, in order, each checked against the module's key
 * pattern and its default parsed at declaration; the configuration page lists them (see
 * {@link ConfigDocs}).
 */
public final class OptionSet {
  private final String keyPattern;
  private final String keyShape;
  private final List<ConfigEntry<?>> entries = new ArrayList<>();

  /**
   * @param keyPattern the regular expression every key of the set matches
   * @param keyShape how the keys look, for the error message
   */
  public OptionSet(String keyPattern, String keyShape) {
    this.keyPattern = keyPattern;
    this.keyShape = keyShape;
  }

  /** Every entry declared so far, in declaration order. */
  public List<ConfigEntry<?>> all() {
    return Collections.unmodifiableList(entries);
  }

  public <T> ConfigEntry<T> add(String key, String type, String def, String doc, Function<String, T> parser) {
    if (!key.matches(keyPattern)) {
      throw new IllegalArgumentException("config key must look like " + keyShape + ": " + key);
    }
    ConfigEntry<T> e = new ConfigEntry<>(key, type, def, doc, parser);
    e.parse(def.isEmpty() && !type.equals("string") ? "0" : def);
    entries.add(e);
    return e;
  }

  public ConfigEntry<Integer> intEntry(String key, int def, String doc) {
    return add(key, "int", Integer.toString(def), doc, Integer::parseInt);
  }

  public ConfigEntry<Long> bytes(String key, String def, String doc) {
    return add(key, "bytes", def, doc, ValueParsers::bytes);
  }

  public ConfigEntry<Integer> intBytes(String key, String def, String doc) {
    return add(key, "bytes", def, doc, t -> Math.toIntExact(ValueParsers.bytes(t)));
  }

  public ConfigEntry<Duration> duration(String key, String def, String doc) {
    return add(key, "duration", def, doc, ValueParsers::duration);
  }

  public ConfigEntry<Double> fraction(String key, double def, String doc) {
    return add(key, "fraction", Double.toString(def), doc, t -> {
      double v = Double.parseDouble(t);
      if (!(v >= 0 && v <= 1)) {
        throw new IllegalArgumentException("a fraction must be in [0, 1]");
      }
      return v;
    });
  }

  public ConfigEntry<Boolean> bool(String key, boolean def, String doc) {
    return add(key, "boolean", Boolean.toString(def), doc, ValueParsers::bool);
  }

  public ConfigEntry<String> string(String key, String def, String doc) {
    return add(key, "string", def, doc, s -> s);
  }

  public ConfigEntry<String> choice(String key, String def, String doc, String... values) {
    List<String> allowed = List.of(values);
    return add(key, String.join(" or ", values), def, doc, s -> {
      if (!allowed.contains(s)) {
        throw new IllegalArgumentException("must be one of " + String.join(", ", allowed));
      }
      return s;
    });
  }

  public ConfigEntry<String> hostPort(String key, String def, String doc) {
    return add(key, "host:port", def, doc, ValueParsers::hostPort);
  }
}
