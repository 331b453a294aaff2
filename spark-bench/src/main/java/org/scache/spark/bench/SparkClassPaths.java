package org.scache.spark.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The class paths of the Spark cluster's JVMs, from what the build wrote into {@code target/netns-lib/}:
 * {@code classpath.txt} (this module's run-time dependencies) and {@code spark-adapter.jar} (the shaded
 * adapter an operator installs).
 *
 * @param spark Spark's jars and what they need, no SCache classes: the run's {@code SPARK_HOME/jars}
 * @param adapterJar the shaded adapter, on the driver's and the executors' extra class path
 * @param jobClasses the benchmark's jobs, which the executors load as an application's jar
 * @param full this module's classes and every dependency: the SCache daemons and the harness
 */
record SparkClassPaths(List<Path> spark, Path adapterJar, Path jobClasses, List<Path> full) {
  static SparkClassPaths of(Path moduleDir) throws IOException {
    Path lib = moduleDir.resolve("target").resolve("netns-lib");
    Path listFile = lib.resolve("classpath.txt");
    Path adapter = lib.resolve("spark-adapter.jar");
    if (!Files.isReadable(listFile) || !Files.isReadable(adapter)) {
      throw new IllegalStateException("no " + listFile + " or " + adapter + ": build the module first ("
          + "mvn -B -ntp -q install -DskipTests)");
    }
    List<Path> dependencies = new ArrayList<>();
    for (String entry : Files.readString(listFile, StandardCharsets.UTF_8).trim().split(":")) {
      if (!entry.isBlank()) {
        dependencies.add(Path.of(entry.trim()).toAbsolutePath());
      }
    }
    Path classes = moduleDir.resolve("target").resolve("classes").toAbsolutePath();
    List<Path> full = new ArrayList<>();
    full.add(classes);
    full.addAll(dependencies);
    Path project = moduleDir.toAbsolutePath().normalize().getParent();
    return new SparkClassPaths(dependencies.stream().filter(p -> !isScache(p, project)).toList(), adapter.toAbsolutePath(),
        classes, List.copyOf(full));
  }

  /** The driver's: Spark's jars, the shaded adapter and the jobs, as spark-submit would assemble them. */
  List<Path> driver() {
    List<Path> cp = new ArrayList<>(spark);
    cp.add(adapterJar);
    cp.add(jobClasses);
    return cp;
  }

  /** SCache's own artifacts: a local repository's org/scache, or a module of this build. */
  private static boolean isScache(Path p, Path project) {
    return p.toString().contains("/org/scache/") || p.normalize().startsWith(project);
  }
}
