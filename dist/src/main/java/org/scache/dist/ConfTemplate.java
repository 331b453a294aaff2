package org.scache.dist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.scache.common.config.ConfigEntry;
import org.scache.common.config.ScacheOptions;

/**
 * Writes the {@code conf/scache.properties} template shipped in the distribution: every key of
 * {@link ScacheOptions}, commented out with its default and documentation. Run at build time.
 */
public final class ConfTemplate {
  private static final int WIDTH = 100;

  private ConfTemplate() {}

  /** The template, as the text of a Java properties file. */
  public static String render() {
    StringBuilder sb = new StringBuilder();
    sb.append("# SCache configuration, read by bin/scache-master and bin/scache-worker.\n")
        .append("#\n")
        .append("# Generated from ScacheOptions: every key is listed, commented out, with its default.\n")
        .append("# Uncomment and change what you need. Sizes take k, m, g, t; durations take ms, s, m, h, d.\n")
        .append("# Any key can also be given on the command line, which wins over this file:\n")
        .append("#   bin/scache-worker start -Dscache.worker.rpc.port=17021\n")
        .append("#\n")
        .append("# REQUIRED: ").append(ScacheOptions.SECURITY_CLUSTER_SECRET.key())
        .append(" (the daemons refuse to start without it).\n");
    String role = "";
    for (ConfigEntry<?> e : ScacheOptions.all()) {
      String r = e.key().split("\\.")[1];
      if (!r.equals(role)) {
        role = r;
        sb.append("\n# ").append("-".repeat(16)).append(' ').append(r).append('\n');
      }
      sb.append('\n');
      boolean required = e == ScacheOptions.SECURITY_CLUSTER_SECRET;
      String doc = (required ? "REQUIRED. " : "") + e.doc() + " (" + e.typeName() + ")";
      if (required) {
        doc += " Generate one with: openssl rand -hex 32";
      }
      wrap(sb, doc);
      sb.append('#').append(e.key()).append('=').append(e.defaultText()).append('\n');
    }
    return sb.toString();
  }

  private static void wrap(StringBuilder sb, String text) {
    StringBuilder line = new StringBuilder("#");
    for (String word : text.split(" ")) {
      if (line.length() + 1 + word.length() > WIDTH && line.length() > 1) {
        sb.append(line).append('\n');
        line = new StringBuilder("#");
      }
      line.append(' ').append(word);
    }
    sb.append(line).append('\n');
  }

  /** Writes the template to the path given as the only argument. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: ConfTemplate OUTPUT_FILE");
      System.exit(2);
    }
    Path out = Path.of(args[0]).toAbsolutePath();
    Files.createDirectories(out.getParent());
    Files.writeString(out, render(), StandardCharsets.UTF_8);
  }
}
