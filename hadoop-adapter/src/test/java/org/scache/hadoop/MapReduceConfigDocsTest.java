package org.scache.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.scache.common.config.ConfigDocs;

/**
 * The MapReduce adapter section of {@code docs/configuration.md} is what {@link ConfigDocs} generates from
 * {@link MapReduceOptions}. Run with {@code -Dscache.docs.regenerate=true} to write it instead.
 */
class MapReduceConfigDocsTest {
  static final String SECTION = "mapreduce";
  private static final String REGENERATE =
      "mvn -pl hadoop-adapter test -Dtest=MapReduceConfigDocsTest -Dscache.docs.regenerate=true";

  static String expected() {
    return ConfigDocs.section(SECTION, "MapReduce adapter", "Set in mapred-site.xml or in a job's configuration; "
        + "see [deploy-yarn.md](deploy-yarn.md).", MapReduceOptions.all());
  }

  @Test
  void mapReduceSection_matchesTheAdaptersKeys() throws IOException {
    Path page = Path.of("").toAbsolutePath().resolve("../docs/configuration.md").normalize();
    String text = Files.readString(page, StandardCharsets.UTF_8);
    if (Boolean.getBoolean("scache.docs.regenerate")) {
      Files.writeString(page, ConfigDocs.withSection(text, SECTION, expected()), StandardCharsets.UTF_8);
      return;
    }
    assertEquals(Optional.of(expected()), ConfigDocs.sectionOf(text, SECTION),
        page + " is out of date with MapReduceOptions; regenerate it with: " + REGENERATE);
  }
}
