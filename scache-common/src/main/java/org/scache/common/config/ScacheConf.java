package org.scache.common.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * An immutable set of configuration values, read through typed {@link ConfigEntry}s; a key that is
 * not set yields the entry's default. Values come from properties files, system properties
 * ({@code -Dscache.x=y}) or code.
 */
public final class ScacheConf {
  private final Map<String, String> values;

  private ScacheConf(Map<String, String> values) {
    this.values = Map.copyOf(values);
  }

  public static ScacheConf empty() {
    return new ScacheConf(Map.of());
  }

  public static ScacheConf of(Map<String, String> values) {
    return new ScacheConf(values);
  }

  /** Reads a Java properties file. */
  public static ScacheConf load(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    }
    Map<String, String> m = new HashMap<>();
    p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
    return new ScacheConf(m);
  }

  /** These values, overridden by every {@code scache.*} system property. */
  public ScacheConf withSystemProperties() {
    Map<String, String> m = new HashMap<>(values);
    System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith("scache."))
        .forEach(k -> m.put(k, System.getProperty(k)));
    return new ScacheConf(m);
  }

  /** These values with {@code entry} set to {@code value} (a {@link java.time.Duration} is written in ms). */
  public ScacheConf with(ConfigEntry<?> entry, Object value) {
    return with(entry.key(), value instanceof java.time.Duration d ? d.toMillis() + "ms" : String.valueOf(value));
  }

  /** These values with {@code entry} set to {@code value} unless it is set already. */
  public ScacheConf withDefault(ConfigEntry<?> entry, Object value) {
    return isSet(entry) ? this : with(entry, value);
  }

  public ScacheConf with(String key, String value) {
    Map<String, String> m = new HashMap<>(values);
    m.put(key, value);
    return new ScacheConf(m);
  }

  public <T> T get(ConfigEntry<T> entry) {
    String v = values.get(entry.key());
    return entry.parse(v == null ? entry.defaultText() : v);
  }

  public boolean isSet(ConfigEntry<?> entry) {
    return values.containsKey(entry.key());
  }

  /** The raw values, for passing on to another process. */
  public Map<String, String> asMap() {
    return values;
  }
}
