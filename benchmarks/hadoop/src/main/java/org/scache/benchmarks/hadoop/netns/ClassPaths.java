package org.scache.benchmarks.hadoop.netns;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.scache.benchmarks.harness.netns.ModuleBuild;

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
  /** Reads the class paths from {@code moduleDir}/target (the benchmarks/hadoop module, built with {@code package}). */
  public static ClassPaths of(Path moduleDir) throws IOException {
    ModuleBuild build = ModuleBuild.of(moduleDir, "hadoop-adapter.jar");
    List<Path> hadoop = new ArrayList<>(build.dependencies().stream().filter(p -> !isScache(p)).toList());
    hadoop.add(build.adapterJar());
    return new ClassPaths(List.copyOf(hadoop), List.copyOf(build.full()));
  }

  /** SCache's own artifacts (a local repository's org/scache, or a reactor module's classes). */
  private static boolean isScache(Path p) {
    String s = p.toString();
    return s.contains("/org/scache/") || s.endsWith("/target/classes") || s.endsWith("/target/test-classes")
        || List.of("scache-", "hadoop-adapter", "yarn-adapter", "tez-adapter").stream()
            .anyMatch(p.getFileName().toString()::startsWith);
  }
}
