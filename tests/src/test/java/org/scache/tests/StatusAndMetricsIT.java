package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.client.ShuffleHints;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.testing.Await;

/**
 * What an operator and a job author see: after a shuffle has run through a cluster on real sockets,
 * the workers' and the master's Prometheus endpoints agree with what the job itself did, the
 * master explains the shuffle (predictor and why, placement, a reduce that ran off its worker and
 * why), the page renders in a real headless browser, and bad HTTP requests get error statuses while
 * the endpoints keep serving.
 */
class StatusAndMetricsIT {
  private static final String APP = "app-status";
  private static final int SHUFFLE = 3;
  private static final int MAPS = 6;
  private static final int REDUCES = 6;
  private static final List<String> HOSTS = List.of("worker-0", "worker-1", "worker-2");
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private static InProcessCluster cluster;
  private static ShufflePlacement placed;
  /** What the job did, by worker: bytes put, and reduce reads and their bytes. */
  private static final long[] putBytes = new long[3];
  private static final long[] reads = new long[3];
  private static final long[] readBytes = new long[3];
  private static int offNodeReduce;
  private static long shuffleBytes;

  @BeforeAll
  static void runShuffle() throws Exception {
    cluster = InProcessCluster.start(3, 64L << 20, ScacheConf.empty()
        .with(ScacheOptions.MASTER_SCHEDULE_OBSERVATION_THRESHOLD.key(), "0.5"));
    List<ScacheClient> clients = List.of(cluster.client(0, APP, "secret"), cluster.client(1, APP, "secret"),
        cluster.client(2, APP, "secret"));
    List<Long> inputs = List.of(3000L, 5000L, 4000L, 6000L, 2000L, 7000L);
    clients.get(0).registerApplication();
    clients.get(0).registerShuffle(SHUFFLE, MAPS, REDUCES, PartitionerKind.HASH, ShuffleHints.inputSizes(inputs));
    for (int m = 0; m < MAPS; m++) {
      int w = m % 3;
      for (int r = 0; r < REDUCES; r++) {
        int size = blockSize(inputs.get(m), r);
        clients.get(w).putBlock(new BlockId(APP, SHUFFLE, m, 0, r), BlockData.bytes(seed(m, r), size));
        putBytes[w] += size;
        shuffleBytes += size;
      }
      clients.get(w).mapFinished(SHUFFLE, m, 0);
    }
    placed = clients.get(0).getScheduleResult(SHUFFLE);
    // every reduce but one is read on its placed worker; reduce 0 is read on the next one, as a
    // framework does when it cannot get a slot where SCache placed the reduce
    offNodeReduce = 0;
    for (ReduceAssignment a : placed.assignments()) {
      int w = HOSTS.indexOf(a.worker().workerId());
      if (a.reduceId() == offNodeReduce) {
        w = (w + 1) % 3;
      }
      ReduceInput in = clients.get(w).getReduceInput(SHUFFLE, a.reduceId());
      assertEquals(MAPS, in.blocks().size());
      reads[w]++;
      for (ReduceInput.Block b : in.blocks()) {
        readBytes[w] += b.data().remaining();
      }
    }
    clients.forEach(ScacheClient::close);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void workerMetrics_agreeWithWhatTheJobPutAndRead() throws Exception {
    for (int w = 0; w < 3; w++) {
      String metrics = get(workerUrl(w, "/metrics"), 200);
      assertEquals(putBytes[w], value(metrics, "scache_worker_put_bytes_total"), "worker " + w + " put bytes");
      assertEquals(MAPS * REDUCES / 3, value(metrics, "scache_worker_put_blocks_total"), "worker " + w + " blocks");
      // a worker that answered no reduce has no line for it; clients on its host read through its shared memory
      assertEquals(reads[w], answers(metrics, "scache_worker_answers_total{request=\"%s\",status=\"OK\"}"),
          "worker " + w + " reads");
      assertEquals(reads[w], answers(metrics, "scache_worker_request_duration_seconds_count{request=\"%s\"}"),
          "latency observations");
      Map<String, Long> stats = cluster.worker(w).stats();
      for (String key : stats.keySet()) {
        assertTrue(org.scache.worker.WorkerStatsCatalog.all().containsKey(key), key + " is described for operators");
      }
      long local = value(metrics, "scache_worker_read_local_bytes_total");
      long remote = value(metrics, "scache_worker_read_remote_bytes_total");
      assertEquals(readBytes[w], local + remote, "worker " + w + ": bytes its reduces read, local and fetched");
      assertEquals(stats.get("memory.reserved.bytes"), value(metrics, "scache_worker_memory_reserved_bytes"));
      assertTrue(metrics.contains("# TYPE scache_worker_store_blocks gauge"), "gauges are typed as gauges");
      assertTrue(metrics.contains(
          "# HELP scache_worker_prefetch_bytes_total Bytes copied here ahead of their reduce."));
    }
  }

  @Test
  void masterMetrics_countWorkersPlacementsAndReadsOffTheirWorker() throws Exception {
    Await.until(() -> count(masterMetrics(), "scache_master_reduce_reads_total{placed=\"false\"}") == 1,
        Duration.ofSeconds(20), () -> "the off-node read was not reported");
    String metrics = masterMetrics();
    assertEquals(3, value(metrics, "scache_master_workers_live"));
    assertEquals(1, value(metrics, "scache_master_applications"));
    assertEquals(1, value(metrics, "scache_master_placements_total{policy=\"heuristic-minheap\"}"));
    assertEquals(REDUCES, value(metrics, "scache_master_reduces_placed_total"));
    assertEquals(REDUCES - 1, value(metrics, "scache_master_reduce_reads_total{placed=\"true\"}"));
    assertEquals(MAPS, value(metrics, "scache_master_answers_total{request=\"MAP_FINISHED\",status=\"OK\"}"));
    assertEquals(1, value(metrics, "scache_master_schedule_compute_seconds_count"));
  }

  @Test
  void shuffleExplanation_saysWhichPredictorWhyWhereEachReduceRanAndWhereTheBytesWent() throws Exception {
    String text = awaitAllReadsReported();
    assertTrue(text.contains("6 maps (6 finished), 6 reduces, HASH partitioner"), text);
    assertTrue(text.contains("predictor: regression - HASH partitioner: each reduce's share of a map's output is "
        + "stable"), text);
    assertTrue(text.contains("over the 3 of 6 maps finished when the observation threshold (0.5) was reached"), text);
    assertTrue(text.contains("placed by heuristic-minheap after 3 of 6 maps"), text);
    String placedOn = placed.workerOf(offNodeReduce).orElseThrow().workerId();
    String ranOn = HOSTS.get((HOSTS.indexOf(placedOn) + 1) % 3);
    assertTrue(text.contains("placed on " + placedOn + "; the framework ran it on " + ranOn), text);
    assertTrue(text.contains("6 of 6 reduces read, 1 off their placed worker"), text);
    // every map finished, so the predicted sizes stand beside the actual ones
    assertTrue(text.contains("makespan (largest worker load): predicted"), text);
    assertTrue(text.contains("; actual "), text);
    for (ReduceAssignment a : placed.assignments()) {
      assertTrue(Pattern.compile("(?m)^\\s+" + a.reduceId() + " .* " + Pattern.quote(a.worker().workerId()) + "\\s+"
          + a.round() + " ").matcher(text).find(), "reduce " + a.reduceId() + " row names its worker and round:\n"
          + text);
    }
    String status = get(masterUrl("/text/status"), 200);
    assertTrue(status.startsWith("master: single master\n3 live workers, 1 applications, 1 shuffles"), status);
    assertTrue(status.contains(APP), status);
  }

  @Test
  void statusPage_renderedInHeadlessChromium_showsTheShufflesExplanation() throws Exception {
    awaitAllReadsReported();
    Path chromium = Path.of(System.getProperty("scache.test.chromium", "/usr/bin/chromium"));
    assertTrue(Files.isExecutable(chromium), chromium + " is needed for this test: apt-get install chromium");
    String url = masterUrl("/shuffle?app=" + APP + "&id=" + SHUFFLE);
    Path profile = Files.createTempDirectory("scache-chromium");
    String dom = Browser.dumpDom(chromium, profile, url);
    assertTrue(dom.contains("Predictor: <b>regression</b>"), dom);
    assertTrue(dom.contains("<svg id=\"sizes\""), "the size chart is on the page");
    assertTrue(dom.contains("<svg id=\"loads\""), "the load chart is on the page");
    assertTrue(dom.contains("1 off their placed worker"), dom);
    Path shot = Path.of("target", "status-page.png").toAbsolutePath();
    Files.deleteIfExists(shot);
    Browser.screenshot(chromium, profile, url, shot, 1280, 1500);
    byte[] png = Files.readAllBytes(shot);
    assertTrue(png.length > 10_000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G', "a screenshot was taken");
    String page = System.getProperty("scache.docs.screenshot", "");
    if (!page.isEmpty()) {
      Files.copy(shot, Path.of(page), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    String front = Browser.dumpDom(chromium, profile, masterUrl("/"));
    assertTrue(front.contains("3 live workers, 1 applications, 1 shuffles"), front);
  }

  @Test
  void badHttpRequests_getAnErrorStatus_andTheEndpointsKeepServing() throws Exception {
    get(masterUrl("/nothing-here"), 404);
    get(masterUrl("/shuffle"), 400);
    get(masterUrl("/shuffle?app=" + APP + "&id=seven"), 400);
    get(masterUrl("/text/shuffle?app=no-such-app&id=1"), 404);
    assertTrue(rawGet("/shuffle?app=%ZZ&id=1").startsWith("HTTP/1.1 400"), "a bad escape is answered 400");
    get(masterUrl("/shuffle?app=" + "a".repeat(5000) + "&id=1"), 414);
    HttpResponse<String> post = HTTP.send(HttpRequest.newBuilder(URI.create(masterUrl("/metrics")))
        .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(405, post.statusCode());
    get(workerUrl(0, "/"), 404);
    String page = get(masterUrl("/shuffle?app=%3Cscript%3E&id=1"), 404);
    assertTrue(!page.contains("<script>") || page.startsWith("the master knows no shuffle"), page);
    assertTrue(get(masterUrl("/"), 200).contains("live workers"));
    assertTrue(get(workerUrl(0, "/metrics"), 200).contains("scache_worker_put_bytes_total"));
  }

  private static String awaitAllReadsReported() {
    String[] last = new String[1];
    Await.until(() -> {
      last[0] = get(masterUrl("/text/shuffle?app=" + APP + "&id=" + SHUFFLE), 200);
      return last[0].contains(REDUCES + " of " + REDUCES + " reduces read");
    }, Duration.ofSeconds(20), () -> "workers' reads did not reach the master:\n" + last[0]);
    // every reduce's whole input was read, locally or fetched at read time
    Matcher m = Pattern.compile("read by reduces: (.*) from their worker's memory, (.*) fetched").matcher(last[0]);
    assertTrue(m.find(), last[0]);
    return last[0];
  }

  /** A request no well-behaved client would send, written on a socket. */
  private static String rawGet(String pathAndQuery) throws IOException {
    try (java.net.Socket s = new java.net.Socket("127.0.0.1", cluster.master().httpPort().orElseThrow())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
          .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      return new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  private static String masterMetrics() {
    return get(masterUrl("/metrics"), 200);
  }

  private static String masterUrl(String path) {
    return "http://127.0.0.1:" + cluster.master().httpPort().orElseThrow() + path;
  }

  private static String workerUrl(int w, String path) {
    return "http://127.0.0.1:" + cluster.worker(w).httpPort().orElseThrow() + path;
  }

  private static String get(String url, int expectedStatus) {
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
          .build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(expectedStatus, r.statusCode(), url + " answered " + r.body());
      return r.body();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The value of one sample line ({@code name} with its labels, as exposed); fails if absent. */
  private static long value(String metrics, String sample) {
    long v = count(metrics, sample);
    assertTrue(v >= 0, sample + " is not exposed:\n" + metrics);
    return v;
  }

  private static long count(String metrics, String sample) {
    for (String line : metrics.split("\n")) {
      if (line.startsWith(sample + " ")) {
        return Math.round(Double.parseDouble(line.substring(sample.length() + 1).trim().split(" ")[0]));
      }
    }
    return -1;
  }

  private static int blockSize(long input, int reduce) {
    return (int) ((reduce == 0 ? 8 : 1 + reduce % 3) * input / 10);
  }

  private static long seed(int map, int reduce) {
    return 1000L * map + reduce;
  }

  /** Debian's Chromium, headless, as the machine's own browser tests start it. */
  static final class Browser {
    private Browser() {}

    static String dumpDom(Path chromium, Path profile, String url) throws Exception {
      return run(chromium, profile, List.of("--dump-dom", url));
    }

    static void screenshot(Path chromium, Path profile, String url, Path png, int width, int height)
        throws Exception {
      run(chromium, profile, List.of("--screenshot=" + png, "--window-size=" + width + "," + height,
          "--hide-scrollbars", url));
      assertTrue(Files.exists(png), "chromium wrote no screenshot to " + png);
    }

    private static String run(Path chromium, Path profile, List<String> args) throws Exception {
      List<String> cmd = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
          "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
          "--disable-sync", "--user-data-dir=" + profile));
      cmd.addAll(args);
      Path out = Files.createTempFile("chromium", ".out");
      Path err = Files.createTempFile("chromium", ".err");
      Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("chromium did not finish within 60 s: " + Files.readString(err));
      }
      String dom = Files.readString(out);
      assertEquals(0, p.exitValue(), "chromium failed: " + Files.readString(err));
      return dom;
    }
  }

  /** The reduce reads {@code line} (a format with the request type) counts,
      over the socket and through shared memory. */
  private static long answers(String metrics, String line) {
    return Math.max(0, count(metrics, String.format(line, "GET_REDUCE_INPUT")))
        + Math.max(0, count(metrics, String.format(line, "PIN_REDUCE_INPUT")));
  }
}
