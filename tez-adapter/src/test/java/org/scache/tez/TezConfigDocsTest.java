package org.scache.tez;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.scache.common.config.ConfigDocs;

/**
 * The Tez section of {@code docs/configuration.md} is what {@link ConfigDocs} generates from
 * {@link TezScacheOptions}. Run with {@code -Dscache.docs.regenerate=true} to write it instead.
 */
class TezConfigDocsTest {
  static final String SECTION = "tez";
  private static final String REGENERATE =
      "mvn -pl tez-adapter test -Dtest=TezConfigDocsTest -Dscache.docs.regenerate=true";

  static String expected() {
    return ConfigDocs.section(SECTION, "Tez adapter", "Set in tez-site.xml or in the configuration a DAG is "
        + "built with (`ScacheTezDag`); the tasks and vertex managers read them from the payloads it writes. The "
        + "worker and client keys above apply as in yarn-site.xml; see [deploy-tez.md](deploy-tez.md).",
        TezScacheOptions.all());
  }

  @Test
  void tezSection_matchesTheAdaptersKeys() throws IOException {
    Path page = Path.of("").toAbsolutePath().resolve("../docs/configuration.md").normalize();
    String text = Files.readString(page, StandardCharsets.UTF_8);
    if (Boolean.getBoolean("scache.docs.regenerate")) {
      Files.writeString(page, ConfigDocs.withSection(text, SECTION, expected()), StandardCharsets.UTF_8);
      return;
    }
    assertEquals(Optional.of(expected()), ConfigDocs.sectionOf(text, SECTION),
        page + " is out of date with TezScacheOptions; regenerate it with: " + REGENERATE);
  }
}
