package org.scache.common.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Generates {@code docs/configuration.md} from {@link ScacheOptions}; run with the output path. */
public final class ConfigDocs {
  private ConfigDocs() {}

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
      // the job switch scache.enabled is the MapReduce adapter's
      String r = e.key().equals(ConfigEntry.JOB_SWITCH) ? "hadoop" : e.key().split("\\.")[1];
      if (!r.equals(role)) {
        role = r;
        sb.append("\n## ").append(Character.toUpperCase(r.charAt(0))).append(r.substring(1)).append("\n\n")
            .append("| key | type | default | meaning |\n|---|---|---|---|\n");
      }
      sb.append("| `").append(e.key()).append("` | ").append(e.typeName()).append(" | ")
          .append(e.defaultText().isEmpty() ? "(empty)" : "`" + e.defaultText() + "`").append(" | ")
          .append(e.doc().replace("|", "\\|")).append(" |\n");
    }
    return sb.toString();
  }

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "docs/configuration.md");
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, render(), StandardCharsets.UTF_8);
    System.out.println("wrote " + out);
  }
}
