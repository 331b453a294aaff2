package org.scache.common.config;

import java.util.Objects;
import java.util.function.Function;

/**
 * One typed configuration key: its name ({@code scache.<role>.<subsystem>.<name>}), type, default
 * and documentation. Entries are declared once, in an {@link OptionSet} ({@link ScacheOptions} for
 * the daemons and the client, one per adapter), and the configuration page is generated from them.
 */
public final class ConfigEntry<T> {
  private final String key;
  private final String typeName;
  private final String defaultText;
  private final String doc;
  private final Function<String, T> parser;

  /** scache.&lt;role&gt;.&lt;subsystem&gt;.&lt;name&gt;. */
  static final String KEY_PATTERN = "scache\\.[a-z]+\\.[a-z]+(\\.[a-z]+)+";

  ConfigEntry(String key, String typeName, String defaultText, String doc, Function<String, T> parser) {
    this.key = Objects.requireNonNull(key);
    this.typeName = typeName;
    this.defaultText = defaultText;
    this.doc = doc;
    this.parser = parser;
  }

  public String key() {
    return key;
  }

  public String typeName() {
    return typeName;
  }

  /** The default as written in a configuration file. */
  public String defaultText() {
    return defaultText;
  }

  public String doc() {
    return doc;
  }

  /** Parses {@code text} as this entry's type, with a message that names the key on failure. */
  public T parse(String text) {
    try {
      return parser.apply(text.trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("bad value for " + key + " (" + typeName + "): '" + text + "': "
          + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return key;
  }
}
