package org.scache.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shaded jar is all a Spark application needs besides Spark: a job run in a JVM whose class path
 * holds Spark's jars, the shaded jar and the job, and no SCache module, shuffles through SCache.
 */
class ShadedJarIT {

  @Test
  void applicationWithSparksJarsAndTheShadedJarOnly_shufflesThroughScache() throws Exception {
    // the module's shaded jar: spark-adapter's for Spark 3.5, spark4-adapter's for Spark 4
    Path shaded;
    try (Stream<Path> jars = Files.list(Path.of("target").toAbsolutePath())) {
      shaded = jars.filter(j -> j.getFileName().toString().endsWith("-spark.jar")).findFirst().orElse(null);
    }
    assertTrue(shaded != null && Files.isRegularFile(shaded), "build the module first: no target/*-spark.jar");
    List<String> classPath = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      boolean scacheModule = entry.contains(File.separator + "org" + File.separator + "scache" + File.separator)
          || entry.contains("scache-") || entry.endsWith(File.separator + "classes")
          || entry.contains("-adapter");
      // Spark's own jars (its Netty among them) and the Spark adapter's test classes (the job)
      boolean adapterTests = entry.endsWith("test-classes")
          || Path.of(entry).getFileName().toString().matches("spark\\d*-adapter-.*-tests\\.jar");
      if (!scacheModule || adapterTests) {
        classPath.add(entry);
      }
    }
    classPath.add(shaded.toString());
    try (ScacheServices scache = ScacheServices.start(List.of("127.0.0.1"), 0, 64L << 20)) {
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
          "java").toString()));
      command.addAll(List.of(SparkConfs.JAVA17_OPENS.split(" ")));
      command.addAll(List.of("-cp", String.join(File.pathSeparator, classPath), ShadedJarJob.class.getName(),
          scache.masterAddress(), "127.0.0.1:" + scache.workerPort(0)));
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(3, TimeUnit.MINUTES));
      assertEquals(0, p.exitValue(), output);
      assertTrue(output.contains("SHUFFLE-MANAGER org.scache.spark.ScacheShuffleManager active=true"), output);
      StringBuilder expected = new StringBuilder("OUTPUT ");
      List<String> lines = new ArrayList<>();
      for (int k = 0; k < 13; k++) {
        lines.add(k + "=" + (20_000 / 13 + (k < 20_000 % 13 ? 1 : 0)));
      }
      lines.sort(null);
      expected.append(String.join(",", lines));
      assertTrue(output.contains(expected.toString()), output);
      assertTrue(scache.total("put.blocks") > 0, "map output went to SCache");
    }
  }
}
