package org.scache.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/configuration.md} is what {@link ConfigDocs} generates from {@link ScacheOptions}.
 * Run with {@code -Dscache.docs.regenerate=true} to write the page instead of checking it.
 */
class ConfigDocsTest {
  private static final String REGENERATE =
      "mvn -pl scache-common test -Dtest=ConfigDocsTest -Dscache.docs.regenerate=true";

  /** The page, found from the module directory Maven runs tests in. */
  private static Path docsPage() {
    return Path.of("").toAbsolutePath().resolve("../docs/configuration.md").normalize();
  }

  @Test
  void configurationPage_matchesGeneratedDocs() throws IOException {
    Path page = docsPage();
    if (Boolean.getBoolean("scache.docs.regenerate")) {
      Files.createDirectories(page.getParent());
      String old = Files.exists(page) ? Files.readString(page, StandardCharsets.UTF_8) : "";
      Files.writeString(page, ConfigDocs.withCommonPart(old), StandardCharsets.UTF_8);
      return;
    }
    String hint = page + " is out of date with ScacheOptions; regenerate it with: " + REGENERATE;
    assertTrue(Files.exists(page), hint);
    assertEquals(ConfigDocs.render(), ConfigDocs.commonPart(Files.readString(page, StandardCharsets.UTF_8)), hint);
  }

  @Test
  void render_listsEveryKeyOnceWithItsDefault() {
    String page = ConfigDocs.render();
    for (ConfigEntry<?> e : ScacheOptions.all()) {
      String row = "| `" + e.key() + "` | " + e.typeName() + " | ";
      assertEquals(page.indexOf(row), page.lastIndexOf(row), e.key() + " listed twice");
      assertTrue(page.contains(row), e.key() + " missing");
      assertTrue(page.contains(row + (e.defaultText().isEmpty() ? "(empty)" : "`" + e.defaultText() + "`")),
          e.key() + " default");
    }
    assertTrue(page.startsWith("# Configuration\n"));
    for (String section : new String[] {"Network", "Security", "Master", "Worker", "Client"}) {
      assertTrue(page.contains("\n## " + section + "\n"), section);
    }
  }

  @Test
  void adapterSections_areReplacedInPlace_andLeaveTheCommonPartAlone() {
    String page = ConfigDocs.render();
    String first = ConfigDocs.section("a", "Adapter A", "Keys of A.", ScacheOptions.all().subList(0, 1));
    String second = ConfigDocs.section("b", "Adapter B", "Keys of B.", ScacheOptions.all().subList(1, 2));
    String withBoth = ConfigDocs.withSection(ConfigDocs.withSection(page, "a", first), "b", second);
    assertEquals(page, ConfigDocs.commonPart(withBoth));
    assertEquals(java.util.Optional.of(first), ConfigDocs.sectionOf(withBoth, "a"));
    String changed = ConfigDocs.section("a", "Adapter A", "Other keys of A.", ScacheOptions.all().subList(2, 3));
    String replaced = ConfigDocs.withSection(withBoth, "a", changed);
    assertEquals(java.util.Optional.of(changed), ConfigDocs.sectionOf(replaced, "a"));
    assertEquals(java.util.Optional.of(second), ConfigDocs.sectionOf(replaced, "b"));
    assertTrue(replaced.indexOf("Adapter A") < replaced.indexOf("Adapter B"), "a section keeps its place");
    assertEquals(withBoth.substring(ConfigDocs.commonPart(withBoth).length()),
        ConfigDocs.withCommonPart(withBoth).substring(page.length()), "regenerating keeps the sections");
  }
}
