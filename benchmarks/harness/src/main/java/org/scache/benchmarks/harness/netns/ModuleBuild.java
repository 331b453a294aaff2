package org.scache.benchmarks.harness.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a benchmark module's build wrote for its cluster's JVMs into {@code target/netns-lib/}:
 * {@code classpath.txt} (the module's run-time dependencies, ':'-separated) and the shaded adapter jar
 * an operator installs.
 *
 * @param dependencies the run-time dependencies, absolute
 * @param adapterJar the shaded adapter
 * @param classes the module's own classes
 */
public record ModuleBuild(List<Path> dependencies, Path adapterJar, Path classes) {
  /** Reads the build of {@code moduleDir}, whose adapter jar is {@code netns-lib/<adapterJarName>}. */
  public static ModuleBuild of(Path moduleDir, String adapterJarName) throws IOException {
    Path lib = moduleDir.resolve("target").resolve("netns-lib");
    Path listFile = lib.resolve("classpath.txt");
    Path adapter = lib.resolve(adapterJarName);
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
    return new ModuleBuild(List.copyOf(dependencies), adapter.toAbsolutePath(),
        moduleDir.resolve("target").resolve("classes").toAbsolutePath());
  }

  /** The module's classes, then every dependency: a class path with all of SCache on it. */
  public List<Path> full() {
    List<Path> full = new ArrayList<>();
    full.add(classes);
    full.addAll(dependencies);
    return full;
  }
}
