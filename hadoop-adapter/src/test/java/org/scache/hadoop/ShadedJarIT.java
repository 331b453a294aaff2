package org.scache.hadoop;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The packaged adapter jar is one jar YARN can load: SCache inside, Netty relocated, nothing of Hadoop's. */
@Timeout(60)
class ShadedJarIT {

  @Test
  void shadedJar_relocatesNettyAndPrometheus_andCarriesNoHadoopOrSlf4j() throws IOException {
    try (JarFile jar = new JarFile(adapterJar().toFile())) {
      List<String> names = jar.stream().map(JarEntry::getName).collect(Collectors.toList());
      assertTrue(names.contains("org/scache/yarn/ScacheAuxService.class"));
      assertTrue(names.contains("org/scache/worker/ScacheWorker.class"), "the embedded worker is inside");
      assertTrue(names.contains("org/scache/client/ScacheClient.class"));
      assertTrue(names.stream().anyMatch(n -> n.startsWith("org/scache/shaded/io/netty/channel/")),
          "Netty is inside, relocated");
      assertFalse(names.stream().anyMatch(n -> n.startsWith("io/netty/")), "no Netty class at its own name");
      assertTrue(names.stream().anyMatch(n -> n.startsWith("org/scache/shaded/io/prometheus/metrics/core/")),
          "the Prometheus client the worker's /metrics uses is inside, relocated");
      assertFalse(names.stream().anyMatch(n -> n.startsWith("io/prometheus/")), "no Prometheus class at its own name");
      assertFalse(names.stream().anyMatch(n -> n.startsWith("org/apache/hadoop/") && !n.endsWith("/")
          && !n.startsWith("org/apache/hadoop/mapreduce/v2/app/rm/ScacheContainerAllocator")),
          "Hadoop is the cluster's: only SCache's allocator bridge sits in a Hadoop package");
      assertFalse(names.stream().anyMatch(n -> n.startsWith("org/slf4j/")), "SLF4J is the cluster's");
      assertFalse(names.stream().anyMatch(n -> n.startsWith("META-INF/native/")), "no native Netty transport");

      String client = classText(jar, "org/scache/common/network/ConnectionPool.class");
      assertTrue(client.contains("org/scache/shaded/io/netty/"), "SCache code refers to the relocated Netty");
      assertFalse(client.replace("org/scache/shaded/io/netty/", "").contains("io/netty/"),
          "SCache code has no reference left to Netty at its own name");
    }
  }

  private static String classText(JarFile jar, String name) throws IOException {
    JarEntry e = jar.getJarEntry(name);
    assertTrue(e != null, name + " is in the jar");
    return new String(jar.getInputStream(e).readAllBytes(), StandardCharsets.ISO_8859_1);
  }

  private static Path adapterJar() throws IOException {
    try (Stream<Path> s = Files.list(Path.of("target"))) {
      return s.filter(p -> {
        String n = p.getFileName().toString();
        return n.startsWith("hadoop-adapter-") && n.endsWith(".jar") && !n.contains("tests")
            && !n.contains("sources");
      }).findFirst().orElseThrow(() -> new IllegalStateException("run after 'package': no hadoop-adapter jar"));
    }
  }
}
