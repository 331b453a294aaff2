package org.scache.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.scache.common.config.ConfigDocs;

/**
 * The Spark section of {@code docs/configuration.md} is what {@link ConfigDocs} generates from
 * {@link SparkScacheOptions}. Run with {@code -Dscache.docs.regenerate=true} to write it instead.
 */
class SparkConfigDocsTest {
  static final String SECTION = "spark";
  private static final String REGENERATE =
      "mvn -pl spark-adapter test -Dtest=SparkConfigDocsTest -Dscache.docs.regenerate=true";

  static String expected() {
    return ConfigDocs.section(SECTION, "Spark adapter", "Set in spark-defaults.conf or with --conf. Every other "
        + "SCache key is given to Spark as `spark.` followed by the key (`spark.scache.client.master.address`); see "
        + "[deploy-spark.md](deploy-spark.md).", SparkScacheOptions.all());
  }

  @Test
  void sparkSection_matchesTheAdaptersKeys() throws IOException {
    Path page = Path.of("").toAbsolutePath().resolve("../docs/configuration.md").normalize();
    String text = Files.readString(page, StandardCharsets.UTF_8);
    if (Boolean.getBoolean("scache.docs.regenerate")) {
      Files.writeString(page, ConfigDocs.withSection(text, SECTION, expected()), StandardCharsets.UTF_8);
      return;
    }
    assertEquals(Optional.of(expected()), ConfigDocs.sectionOf(text, SECTION),
        page + " is out of date with SparkScacheOptions; regenerate it with: " + REGENERATE);
  }
}
