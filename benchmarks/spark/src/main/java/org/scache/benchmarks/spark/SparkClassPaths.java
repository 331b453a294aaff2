package org.scache.benchmarks.spark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.scache.benchmarks.harness.netns.ModuleBuild;

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
    ModuleBuild build = ModuleBuild.of(moduleDir, "spark-adapter.jar");
    Path project = moduleDir.toAbsolutePath().normalize().getParent();
    return new SparkClassPaths(build.dependencies().stream().filter(p -> !isScache(p, project)).toList(),
        build.adapterJar(), build.classes(), build.full());
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
