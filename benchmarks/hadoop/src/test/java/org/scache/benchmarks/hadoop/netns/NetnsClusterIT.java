package org.scache.benchmarks.hadoop.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.scache.benchmarks.harness.netns.Directories;
import org.scache.benchmarks.harness.netns.NodeNetwork;
import org.scache.hadoop.MiniScacheYarnCluster;

/**
 * TeraSort on the namespaced cluster: three NodeManager hosts with names and addresses of their own,
 * separate daemons, SCache loaded from the shaded jar. The job client is the benchmark's
 * ({@code TerasortBenchmark --cluster}), which runs Hadoop's shuffle and SCache on the same input,
 * validates the output with TeraValidate and compares both outputs byte for byte (it fails otherwise).
 * Skipped, with the reason, where the machine cannot make namespaces (not root, no iproute2).
 */
@Tag("netns")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NetnsClusterIT {
  /**
   * Every job's task and application master JVMs with the client compiler alone and the serial collector (on two
   * cores a short-lived JVM's C2 compilations take the cores the job's other JVMs wait for), and the application
   * master and the client asking every 200 ms instead of every second or five: the same tasks, less waiting.
   */
  private static final String TASK_ADMIN_OPTS = "-Djava.net.preferIPv4Stack=true -Dhadoop.metrics.log.level=WARN "
      + MiniScacheYarnCluster.QUICK_JVM_OPTS; // Hadoop's own administrator options, and ours
  private static final Map<String, String> QUICK_JOBS = Map.of(
      "mapreduce.admin.map.child.java.opts", TASK_ADMIN_OPTS,
      "mapreduce.admin.reduce.child.java.opts", TASK_ADMIN_OPTS,
      "yarn.app.mapreduce.am.admin-command-opts", MiniScacheYarnCluster.QUICK_JVM_OPTS,
      "yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms", "200",
      "mapreduce.client.completion.pollinterval", "200",
      "mapreduce.client.progressmonitor.pollinterval", "200");
  private static NetnsCluster cluster;
  private static final Path RESULTS = Path.of("target", "netns-it").toAbsolutePath();

  @BeforeAll
  static void start() throws Exception {
    String missing = NodeNetwork.whatIsMissing();
    assumeTrue(missing == null, () -> "namespaced cluster not possible here: " + missing);
    Directories.deleteRecursively(RESULTS);
    cluster = NetnsCluster.start(Path.of("target", "netns-cluster-it").toAbsolutePath(), 3, 512L << 20,
        ClassPaths.of(Path.of("").toAbsolutePath()), 1, 0, Map.of(), QUICK_JOBS);
  }

  /** The client's last lines, echoed as they come, so that a failing assertion says what the client said. */
  private static final class ClientOutput implements Consumer<String> {
    private static final int KEPT = 60;
    private final ArrayDeque<String> last = new ArrayDeque<>();

    @Override
    public synchronized void accept(String line) {
      System.out.println(line);
      if (last.size() == KEPT) {
        last.removeFirst();
      }
      last.addLast(line);
    }

    synchronized String why(String what) {
      return what + "; the client's last lines (logs: " + cluster.runDir().resolve("logs") + "):\n"
          + String.join("\n", last);
    }
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  @Timeout(value = 8, unit = TimeUnit.MINUTES)
  void terasortThroughScache_reducesRunOnTheirPreScheduledNodes_sameOutputAsHadoopShuffle() throws Exception {
    Path results = RESULTS.resolve("placement");
    ClientOutput output = new ClientOutput();
    int code = cluster.runClient("terasort-placement", "org.scache.benchmarks.hadoop.TerasortBenchmark",
        // --remote-rate 0: every reduce waits the whole placement delay for its node, however little input it has
        List.of("--cluster", cluster.runDir().toString(), "--results", results.toString(), "--sizes", "96m",
            "--repetitions", "1", "--remote-rate", "0"), Duration.ofMinutes(7), output);
    assertEquals(0, code, () -> output.why("the TeraSort client succeeded: outputs identical and sorted"));
    Map<String, String> scache = row(results.resolve("runs.csv"), "SCACHE");
    long placed = Long.parseLong(scache.get("reduces_on_scheduled_node"));
    System.out.println("NETNS placement: " + scache);
    assertEquals(6, placed, "every reduce ran on the node the master placed it on, through YARN's node locality");
    assertEquals(0L, Long.parseLong(scache.get("reduces_elsewhere")));
    assertEquals(0L, Long.parseLong(scache.get("remote_read_bytes")), "no reduce read a block from another node");
    assertTrue(Long.parseLong(scache.get("prefetched_bytes")) > 0, "blocks crossed between nodes before the reduces");
  }

  @Test
  @Order(2)
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void nodeLostDuringTheMaps_jobStillFinishes_sameOutputAsHadoopShuffle() throws Exception {
    Path results = RESULTS.resolve("node-loss");
    AtomicBoolean lost = new AtomicBoolean();
    ClientOutput output = new ClientOutput();
    // the benchmark's first repetition runs Hadoop's shuffle first: node3 is lost while SCache's maps run
    int code = cluster.runClient("terasort-node-loss", "org.scache.benchmarks.hadoop.TerasortBenchmark",
        List.of("--cluster", cluster.runDir().toString(), "--results", results.toString(), "--sizes", "128m",
            "--repetitions", "1"), Duration.ofMinutes(9), line -> {
              output.accept(line);
              if (line.contains("TeraSort (SCache): map") && !line.contains("map   0%")
                  && lost.compareAndSet(false, true)) {
                System.out.println("NETNS losing node3: " + line.trim());
                cluster.loseNode("node3");
              }
            });
    assertTrue(lost.get(), () -> output.why("node3 was lost while the SCache job's maps ran"));
    assertEquals(0, code, () -> output.why("the TeraSort client succeeded: outputs identical and sorted"));
  }

  private static Map<String, String> row(Path csv, String shuffle) throws Exception {
    List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
    List<String> header = Arrays.asList(lines.get(0).split(","));
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",");
      if (f[header.indexOf("shuffle")].equals(shuffle)) {
        Map<String, String> out = new TreeMap<>();
        for (int i = 0; i < header.size(); i++) {
          out.put(header.get(i), f[i]);
        }
        return out;
      }
    }
    throw new AssertionError("no " + shuffle + " run in " + csv + ": " + new ArrayList<>(lines));
  }
}
