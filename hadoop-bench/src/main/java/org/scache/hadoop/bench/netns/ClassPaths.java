package org.scache.hadoop.bench.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The class paths of the cluster's JVMs, from what the build wrote into {@code target/netns-lib/}:
 * {@code classpath.txt} (this module's run-time dependencies) and {@code hadoop-adapter.jar} (the
 * shaded adapter an operator installs).
 *
 * <ul>
 *   <li>{@link #hadoop()}: Hadoop's jars and the shaded adapter, no other SCache classes: the
 *       ResourceManager, the history server, the NodeManagers (their auxiliary service) and the task
 *       containers, as on a cluster where the adapter jar was copied into Hadoop's lib directories;
 *   <li>{@link #full()}: this module's classes and all its dependencies: the SCache master and the job
 *       client.
 * </ul>
 */
public record ClassPaths(List<Path> hadoop, List<Path> full) {
  /** Reads the class paths from {@code moduleDir}/target (the hadoop-bench module, built with {@code package}). */
  public static ClassPaths of(Path moduleDir) throws IOException {
    Path lib = moduleDir.resolve("target").resolve("netns-lib");
    Path listFile = lib.resolve("classpath.txt");
    Path adapter = lib.resolve("hadoop-adapter.jar");
    if (!Files.isReadable(listFile) || !Files.isReadable(adapter)) {
      throw new IllegalStateException("no " + listFile + " or " + adapter + ": build the module first ("
          + "mvn -B -ntp -q install -DskipTests)");
    }
    List<Path> dependencies = new ArrayList<>();
    for (String entry : Files.readString(listFile, StandardCharsets.UTF_8).trim().split(":")) {
      if (!entry.isBlank()) {
        dependencies.add(Path.of(entry.trim()));
      }
    }
    List<Path> hadoop = new ArrayList<>();
    for (Path p : dependencies) {
      if (!isScache(p)) {
        hadoop.add(p);
      }
    }
    hadoop.add(adapter);
    List<Path> full = new ArrayList<>();
    full.add(moduleDir.resolve("target").resolve("classes").toAbsolutePath());
    full.addAll(dependencies);
    return new ClassPaths(List.copyOf(hadoop), List.copyOf(full));
  }

  /** SCache's own artifacts (a local repository's org/scache, or a reactor module's classes). */
  private static boolean isScache(Path p) {
    String s = p.toString();
    return s.contains("/org/scache/") || s.endsWith("/target/classes") || s.endsWith("/target/test-classes")
        || p.getFileName().toString().startsWith("scache-") || p.getFileName().toString().startsWith("hadoop-adapter");
  }
}
