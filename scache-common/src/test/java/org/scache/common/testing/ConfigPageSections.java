package org.scache.common.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.scache.common.config.ConfigDocs;
import org.scache.common.config.ConfigEntry;

/**
 * Checks an adapter's section of {@code docs/configuration.md} against its keys, from the adapter
 * module's directory; with {@code -Dscache.docs.regenerate=true} it writes the section instead.
 */
public final class ConfigPageSections {
  private ConfigPageSections() {}

  /**
   * Fails unless section {@code id} of the page is what {@link ConfigDocs#section} makes of these keys.
   *
   * @param module the module whose test this is, for the command that regenerates the section
   * @param test the test's class name, for the same command
   */
  public static void assertCurrent(String module, String test, String id, String heading, String intro,
      List<ConfigEntry<?>> keys) throws IOException {
    String expected = ConfigDocs.section(id, heading, intro, keys);
    Path page = Path.of("").toAbsolutePath().resolve("../docs/configuration.md").normalize();
    String text = Files.readString(page, StandardCharsets.UTF_8);
    if (Boolean.getBoolean("scache.docs.regenerate")) {
      Files.writeString(page, ConfigDocs.withSection(text, id, expected), StandardCharsets.UTF_8);
      return;
    }
    assertEquals(Optional.of(expected), ConfigDocs.sectionOf(text, id), page + " is out of date with the keys of "
        + module + "; regenerate it with: mvn -pl " + module + " test -Dtest=" + test
        + " -Dscache.docs.regenerate=true");
  }
}
