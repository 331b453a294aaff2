package org.scache.common.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Generates {@code docs/configuration.md}: first the keys of {@link ScacheOptions}, then one marked
 * section per adapter that declares keys of its own, so that each module's test can check its part
 * of the one page. Run with the output path to write the common part (sections are kept).
 */
public final class ConfigDocs {
  private static final String SECTION_START = "<!-- section: ";
  private static final String SECTION_END = "<!-- end of section: ";

  private ConfigDocs() {}

  /** An adapter's section: a heading, a paragraph, and the table of its keys, between markers naming {@code id}. */
  public static String section(String id, String heading, String intro, List<ConfigEntry<?>> entries) {
    StringBuilder sb = new StringBuilder();
    sb.append(SECTION_START).append(id).append(" -->\n\n## ").append(heading).append("\n\n").append(intro)
        .append("\n\n| key | type | default | meaning |\n|---|---|---|---|\n");
    entries.forEach(e -> row(sb, e));
    return sb.append("\n").append(SECTION_END).append(id).append(" -->\n").toString();
  }

  /** The part of {@code page} generated from ScacheOptions: everything before the first adapter section. */
  public static String commonPart(String page) {
    int at = page.indexOf(SECTION_START);
    return at < 0 ? page : page.substring(0, at - 1);
  }

  /** Section {@code id} of {@code page}, if it has one. */
  public static Optional<String> sectionOf(String page, String id) {
    int start = page.indexOf(SECTION_START + id + " -->");
    String end = SECTION_END + id + " -->\n";
    int stop = start < 0 ? -1 : page.indexOf(end, start);
    return stop < 0 ? Optional.empty() : Optional.of(page.substring(start, stop + end.length()));
  }

  /** {@code page} with its section {@code id} replaced by {@code section}, or with it appended. */
  public static String withSection(String page, String id, String section) {
    Optional<String> old = sectionOf(page, id);
    return old.isPresent() ? page.replace(old.get(), section) : page + "\n" + section;
  }

  /** {@code page} with its common part replaced by {@link #render()}, its adapter sections kept. */
  public static String withCommonPart(String page) {
    return render() + page.substring(commonPart(page).length());
  }

  /** The configuration page, as markdown. */
  public static String render() {
    StringBuilder sb = new StringBuilder();
    sb.append("# Configuration\n\n")
        .append("Generated from `ScacheOptions` by `ConfigDocs`; do not edit by hand (a test fails when this page\n")
        .append("and the code disagree). Daemons read `conf/scache.properties`; any key can also be given as a\n")
        .append("system property (`-Dscache.worker.rpc.port=17021`). Sizes take k, m, g, t; durations take\n")
        .append("ms, s, m, h, d.\n");
    String role = "";
    for (ConfigEntry<?> e : ScacheOptions.all()) {
      String r = e.key().split("\\.")[1];
      if (!r.equals(role)) {
        role = r;
        sb.append("\n## ").append(Character.toUpperCase(r.charAt(0))).append(r.substring(1)).append("\n\n")
            .append("| key | type | default | meaning |\n|---|---|---|---|\n");
      }
      row(sb, e);
    }
    return sb.toString();
  }

  private static void row(StringBuilder sb, ConfigEntry<?> e) {
    sb.append("| `").append(e.key()).append("` | ").append(e.typeName()).append(" | ")
        .append(e.defaultText().isEmpty() ? "(empty)" : "`" + e.defaultText() + "`").append(" | ")
        .append(e.doc().replace("|", "\\|")).append(" |\n");
  }

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "docs/configuration.md");
    Files.createDirectories(out.toAbsolutePath().getParent());
    String old = Files.exists(out) ? Files.readString(out, StandardCharsets.UTF_8) : "";
    Files.writeString(out, withCommonPart(old), StandardCharsets.UTF_8);
    System.out.println("wrote " + out);
  }
}
