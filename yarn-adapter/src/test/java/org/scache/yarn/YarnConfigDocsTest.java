package org.scache.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.scache.common.config.ConfigDocs;

/**
 * The YARN (MapReduce and Tez) section of {@code docs/configuration.md} is what {@link ConfigDocs} generates from
 * {@link YarnOptions}. Run with {@code -Dscache.docs.regenerate=true} to write it instead.
 */
class YarnConfigDocsTest {
  static final String SECTION = "yarn";
  private static final String REGENERATE =
      "mvn -pl yarn-adapter test -Dtest=YarnConfigDocsTest -Dscache.docs.regenerate=true";

  static String expected() {
    return ConfigDocs.section(SECTION, "YARN (MapReduce and Tez)", "Set in yarn-site.xml, or in a job's "
        + "configuration. Read by the auxiliary service in every NodeManager and by the MapReduce and Tez "
        + "adapters; see [deploy-yarn.md](deploy-yarn.md).", YarnOptions.all());
  }

  @Test
  void yarnSection_matchesTheAdaptersKeys() throws IOException {
    Path page = Path.of("").toAbsolutePath().resolve("../docs/configuration.md").normalize();
    String text = Files.readString(page, StandardCharsets.UTF_8);
    if (Boolean.getBoolean("scache.docs.regenerate")) {
      Files.writeString(page, ConfigDocs.withSection(text, SECTION, expected()), StandardCharsets.UTF_8);
      return;
    }
    assertEquals(Optional.of(expected()), ConfigDocs.sectionOf(text, SECTION),
        page + " is out of date with YarnOptions; regenerate it with: " + REGENERATE);
  }
}
