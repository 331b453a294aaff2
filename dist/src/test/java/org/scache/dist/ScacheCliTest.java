package org.scache.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.testing.Await;
import org.scache.master.ScacheMaster;
import org.scache.worker.ScacheWorker;

/** {@code bin/scache} against a master and a worker on real sockets: its text and its exit codes. */
class ScacheCliTest {
  @TempDir
  Path dir;

  private record Run(int code, String out, String err) {}

  @Test
  void statusAndShuffle_printTheMastersTextWithExitCodesAScriptCanUse() throws Exception {
    ScacheConf conf = ScacheConf.empty().with(ScacheOptions.SECURITY_CLUSTER_SECRET, "cli-secret")
        .with(ScacheOptions.MASTER_BIND_HOST, "127.0.0.1").with(ScacheOptions.MASTER_PORT, 0)
        .with(ScacheOptions.MASTER_HTTP_BIND_HOST, "127.0.0.1").with(ScacheOptions.MASTER_HTTP_PORT, 0)
        .with(ScacheOptions.MASTER_HEARTBEAT_INTERVAL.key(), "200ms");
    try (ScacheMaster master = ScacheMaster.start(conf)) {
      String http = "127.0.0.1:" + master.httpPort().orElseThrow();
      Run empty = cli("--master", http, "status");
      assertEquals(ScacheCli.NO_WORKERS, empty.code(), empty.out());
      assertTrue(empty.out().startsWith("master: single master\n0 live workers"), empty.out());

      ScacheConf workerConf = conf.with(ScacheOptions.WORKER_BIND_HOST, "127.0.0.1")
          .with(ScacheOptions.WORKER_ADVERTISED_HOST, "127.0.0.1").with(ScacheOptions.WORKER_PORT, 0)
          .with(ScacheOptions.WORKER_HTTP_PORT, -1).with(ScacheOptions.WORKER_ID, "node-1")
          .with(ScacheOptions.WORKER_MEMORY_RESERVE.key(), "16m")
          .with(ScacheOptions.WORKER_MEMORY_DIR, dir.toString())
          .with(ScacheOptions.WORKER_MASTER_ADDRESS, "127.0.0.1:" + master.port());
      try (ScacheWorker worker = ScacheWorker.start(workerConf)) {
        Await.until(worker::isRegistered, Duration.ofSeconds(20), "the worker registers with the master");
        try (ScacheClient client = ScacheClient.create(ScacheConf.empty()
            .with(ScacheOptions.CLIENT_MASTER_ADDRESS, "127.0.0.1:" + master.port())
            .with(ScacheOptions.CLIENT_WORKER_ADDRESS, "127.0.0.1:" + worker.info().port()), "app-cli",
            "s".getBytes(StandardCharsets.UTF_8))) {
          client.registerApplication();
          client.registerShuffle(4, 1, 2, PartitionerKind.HASH);
          client.putBlock(new BlockId("app-cli", 4, 0, 0, 0), new byte[1000]);
          client.putBlock(new BlockId("app-cli", 4, 0, 0, 1), new byte[3000]);
          client.mapFinished(4, 0, 0);
          client.getScheduleResult(4);
        }
        Run status = cli("--master", http, "status");
        assertEquals(ScacheCli.OK, status.code(), status.err());
        assertTrue(status.out().startsWith("master: single master\n1 live workers, 1 applications, 1 shuffles"),
            status.out());
        assertTrue(status.out().contains("node-1"), status.out());

        Run shuffle = cli("--master", http, "shuffle", "app-cli", "4");
        assertEquals(ScacheCli.OK, shuffle.code(), shuffle.err());
        assertTrue(shuffle.out().startsWith("shuffle 4 of app-cli: 1 maps (1 finished), 2 reduces"), shuffle.out());
        assertTrue(shuffle.out().contains("predictor: regression"), shuffle.out());

        // the master's address from the configuration clients use, as bin/scache reads it
        Path props = dir.resolve("scache.properties");
        Files.writeString(props, "scache.client.master.address=127.0.0.1:" + master.port() + "\n"
            + "scache.master.http.port=" + master.httpPort().orElseThrow() + "\n");
        assertEquals(ScacheCli.OK, cli("--conf", props.toString(), "shuffle", "app-cli", "4").code());

        Run unknown = cli("--master", http, "shuffle", "app-cli", "99");
        assertEquals(ScacheCli.NOT_FOUND, unknown.code());
        assertTrue(unknown.err().contains("knows no shuffle 99 of application app-cli"), unknown.err());
      }
    }
  }

  @Test
  void badArgumentsAndAnUnreachableMaster_haveTheirOwnExitCodes() throws Exception {
    assertEquals(ScacheCli.USAGE, cli("stats").code());
    assertEquals(ScacheCli.USAGE, cli().code());
    assertEquals(ScacheCli.USAGE, cli("shuffle", "app", "x").code());
    assertEquals(ScacheCli.USAGE, cli("--master").code());
    int closedPort;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    Run down = cli("--master", "127.0.0.1:" + closedPort, "status");
    assertEquals(ScacheCli.UNREACHABLE, down.code());
  }

  @Test
  void submitterCredential_signedWithTheConfiguredKey_namesItsUser() throws Exception {
    Path conf = dir.resolve("scache.properties");
    Files.writeString(conf, ScacheOptions.SECURITY_SUBMITTER_SECRET.key() + "=the submitter key\n");
    Run made = cli("--conf", conf.toString(), "submitter-credential", "carol", "30");
    assertEquals(ScacheCli.OK, made.code(), made.err());
    assertEquals("carol", org.scache.common.auth.SubmitterCredential.verify(
        "the submitter key".getBytes(StandardCharsets.UTF_8), made.out().strip(), System.currentTimeMillis()));
    assertEquals(ScacheCli.USAGE, cli("submitter-credential", "carol", "30").code(), "no key configured");
  }

  private static Run cli(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = ScacheCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
