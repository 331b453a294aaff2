package org.scache.benchmarks.hadoop.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Writes a Hadoop {@code *-site.xml}. */
final class SiteFile {
  private SiteFile() {}

  static void write(Path file, Map<String, String> properties) throws IOException {
    StringBuilder sb = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    properties.forEach((k, v) -> sb.append("  <property><name>").append(escape(k)).append("</name><value>")
        .append(escape(v)).append("</value></property>\n"));
    sb.append("</configuration>\n");
    Files.createDirectories(file.getParent());
    Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
