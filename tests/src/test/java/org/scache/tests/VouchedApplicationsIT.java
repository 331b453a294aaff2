package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.auth.Credentials;
import org.scache.common.auth.SubmitterCredential;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.network.ConnectionPool;
import org.scache.common.network.ScacheConnection;
import org.scache.common.network.TransportSettings;
import org.scache.common.protocol.RegisterApplication;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.PartitionerKind;

/**
 * Registering another application id gives no more of any limit once the master registers only applications
 * the cluster vouches for: an unvouched id is refused, a vouched one (announced by a worker, as a NodeManager's
 * does) or one with a submitter credential registers as its user, a user's second application shares its
 * first's quotas on the workers and the master, and a flood of registrations from one principal leaves
 * another's registration quick. Real master, workers and sockets.
 */
@Timeout(120)
class VouchedApplicationsIT {
  private static final byte[] SUBMITTER_KEY = "the operator's submitter key".getBytes(StandardCharsets.UTF_8);
  private static final int BLOCKS_MAX = 200;
  private InProcessCluster cluster;

  @BeforeEach
  void start() throws Exception {
    cluster = InProcessCluster.start(2, 16L << 20, ScacheConf.empty()
        .with(ScacheOptions.SECURITY_APPLICATIONS_VOUCHED, true)
        .with(ScacheOptions.SECURITY_APPLICATIONS_VOUCH_WAIT.key(), "1s")
        .with(ScacheOptions.SECURITY_SUBMITTER_SECRET, new String(SUBMITTER_KEY, StandardCharsets.UTF_8))
        .with(ScacheOptions.MASTER_APPLICATIONS_PER_USER_MAX, 5)
        .with(ScacheOptions.WORKER_BLOCKS_MAX, BLOCKS_MAX));
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  private ScacheClient client(int worker, String appId, String secret, String credential) {
    return ScacheClient.create(cluster.clientConf(worker).with(ScacheOptions.CLIENT_SUBMITTER_CREDENTIAL, credential),
        appId, secret.getBytes(StandardCharsets.UTF_8));
  }

  private static String credential(byte[] key, String user, Duration valid) {
    return SubmitterCredential.mint(key, user, Instant.now().plus(valid));
  }

  @Test
  void unvouchedRegistration_isRefused_namingTheKey() {
    try (ScacheClient stranger = cluster.client(0, "app-minted-1", "s")) {
      ScacheException e = assertThrows(ScacheException.class, stranger::registerApplication);
      assertEquals(Status.AUTH_FAILED, e.status(), e.getMessage());
      assertTrue(e.getMessage().contains("scache.security.applications.vouched"), e.getMessage());
      assertEquals(Status.UNKNOWN_APPLICATION, assertThrows(ScacheException.class,
          () -> stranger.putBlock(new BlockId("app-minted-1", 0, 0, 0, 0), new byte[1])).status());
    }
  }

  @Test
  void applicationVouchedForByAWorker_registersAndPuts_withTheSecretVouchedFor() {
    cluster.worker(1).vouchApplication("application_1_0001", "alice", "job-token".getBytes(StandardCharsets.UTF_8));
    try (ScacheClient impostor = cluster.client(0, "application_1_0001", "guessed")) {
      assertEquals(Status.AUTH_FAILED, assertThrows(ScacheException.class, impostor::registerApplication).status());
    }
    try (ScacheClient job = cluster.client(0, "application_1_0001", "job-token")) {
      job.registerApplication();
      BlockId block = new BlockId("application_1_0001", 0, 0, 0, 0);
      job.putBlock(block, new byte[] {7});
      assertEquals(1, job.getBlock(block).length);
    }
  }

  @Test
  void applicationVouchedForBeforeAMasterRestart_registersWithTheRestartedMaster() throws Exception {
    cluster.worker(1).vouchApplication("application_1_0004", "alice", "job-token".getBytes(StandardCharsets.UTF_8));
    cluster.restartMaster();
    cluster.awaitRegistered(Duration.ofSeconds(30));
    try (ScacheClient impostor = cluster.client(0, "application_1_0004", "guessed")) {
      assertEquals(Status.AUTH_FAILED, assertThrows(ScacheException.class, impostor::registerApplication).status(),
          "the worker announced the application and its secret again to the new master");
    }
    try (ScacheClient job = cluster.client(0, "application_1_0004", "job-token")) {
      job.registerApplication();
      BlockId block = new BlockId("application_1_0004", 0, 0, 0, 0);
      job.putBlock(block, new byte[] {7});
      assertEquals(1, job.getBlock(block).length);
    }
  }

  @Test
  void registrationAheadOfItsVouch_waitsForIt() throws Exception {
    try (ScacheClient am = cluster.client(0, "application_1_0002", "job-token")) {
      CompletableFuture<Void> registered = am.registerApplicationAsync();
      Thread.sleep(200);
      cluster.worker(0).vouchApplication("application_1_0002", "alice", new byte[0]);
      registered.get(5, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  @Test
  void secondApplicationOfAUser_sharesTheUsersQuotas_andAnotherUserGoesOn() {
    for (String app : List.of("application_2_0001", "application_2_0002")) {
      cluster.worker(1).vouchApplication(app, "mallory", "t".getBytes(StandardCharsets.UTF_8));
    }
    cluster.worker(1).vouchApplication("application_2_0003", "bob", "t".getBytes(StandardCharsets.UTF_8));
    try (ScacheClient first = cluster.client(0, "application_2_0001", "t");
         ScacheClient second = cluster.client(0, "application_2_0002", "t");
         ScacheClient bob = cluster.client(0, "application_2_0003", "t")) {
      first.registerApplication();
      second.registerApplication();
      bob.registerApplication();
      int accepted = 0;
      for (int i = 0; i < BLOCKS_MAX / 2; i++) {
        first.putBlock(new BlockId("application_2_0001", 0, i, 0, 0), new byte[0]);
        accepted++;
      }
      assertEquals(BLOCKS_MAX / 2, accepted, "the user's share of worker 0's blocks");
      // worker 0 refuses the user's second application; its block goes to worker 1, where the user holds none
      long refusals = cluster.stat(0, "limit.refusals");
      long onWorker1 = cluster.stat(1, "put.blocks");
      second.putBlock(new BlockId("application_2_0002", 0, 0, 0, 0), new byte[0]);
      assertEquals(refusals + 1, cluster.stat(0, "limit.refusals"), "worker 0 refused it: the user's share is full");
      assertEquals(onWorker1 + 1, cluster.stat(1, "put.blocks"), "worker 1 took it");
      for (int i = 0; i < 50; i++) {
        bob.putBlock(new BlockId("application_2_0003", 0, i, 0, 0), new byte[] {1});
      }
      // the master's shuffle budget is the user's too: half the master's budget over both applications
      long half = Runtime.getRuntime().maxMemory() / 4;
      // a reduce of a 100-map hash shuffle is charged 64 bytes, a bit per map and 4 bytes for each of 100 holders
      int reduces = (int) Math.min(Integer.MAX_VALUE / 2, half / 2 / (64 + 100 / 8 + 4 * 100));
      first.registerShuffle(1, 100, reduces, PartitionerKind.HASH);
      ScacheException overBudget = assertThrows(ScacheException.class,
          () -> second.registerShuffle(1, 100, reduces + reduces / 2, PartitionerKind.HASH));
      assertEquals(Status.LIMIT_EXCEEDED, overBudget.status());
      assertTrue(overBudget.getMessage().contains("user mallory"), overBudget.getMessage());
      bob.registerShuffle(1, 100, reduces, PartitionerKind.HASH);
    }
  }

  @Test
  void submitterCredential_registersAsItsUser_forgedAndExpiredOnesAreRefused() {
    try (ScacheClient carol = client(0, "app-standalone-1", "s", credential(SUBMITTER_KEY, "carol",
        Duration.ofHours(1)))) {
      carol.registerApplication();
      carol.putBlock(new BlockId("app-standalone-1", 0, 0, 0, 0), new byte[] {1});
    }
    String forged = credential("a guess".getBytes(StandardCharsets.UTF_8), "carol", Duration.ofHours(1));
    try (ScacheClient c = client(0, "app-standalone-2", "s", forged)) {
      ScacheException e = assertThrows(ScacheException.class, c::registerApplication);
      assertEquals(Status.AUTH_FAILED, e.status());
      assertTrue(e.getMessage().contains("wrong signature"), e.getMessage());
    }
    String expired = credential(SUBMITTER_KEY, "carol", Duration.ofSeconds(-1));
    try (ScacheClient c = client(0, "app-standalone-3", "s", expired)) {
      ScacheException e = assertThrows(ScacheException.class, c::registerApplication);
      assertEquals(Status.AUTH_FAILED, e.status());
      assertTrue(e.getMessage().contains("expired"), e.getMessage());
    }
  }

  @Test
  void floodOfRegistrationsFromOnePrincipal_leavesAnothersRegistrationQuick() throws Exception {
    String mallory = credential(SUBMITTER_KEY, "mallory", Duration.ofHours(1));
    AtomicBoolean flooding = new AtomicBoolean(true);
    AtomicInteger sent = new AtomicInteger();
    AtomicInteger registered = new AtomicInteger();
    List<Thread> flooders = new ArrayList<>();
    try (ConnectionPool pool = new ConnectionPool(TransportSettings.defaults(), "flood")) {
      for (int t = 0; t < 2; t++) {
        int thread = t;
        Thread f = new Thread(() -> {
          ScacheConnection c = pool.get("127.0.0.1", cluster.master().port()).join();
          for (int i = 0; flooding.get(); i++) {
            String app = "minted-" + thread + "-" + i;
            byte[] secret = ("s" + i).getBytes(StandardCharsets.UTF_8);
            try {
              c.call(new RegisterApplication(app, secret, mallory), Optional.of(Credentials.application(app, secret)),
                  Duration.ofSeconds(5)).join().payload().release();
              registered.incrementAndGet();
            } catch (RuntimeException e) {
              Status s = ScacheException.from(e).status();
              assertTrue(s == Status.RETRY_LATER || s == Status.LIMIT_EXCEEDED, s.toString());
            }
            sent.incrementAndGet();
          }
        });
        f.start();
        flooders.add(f);
      }
      List<Long> millis = new ArrayList<>();
      try {
        Thread.sleep(300);
        for (int i = 0; i < 5; i++) {
          String app = "application_3_000" + i;
          cluster.worker(0).vouchApplication(app, "alice", new byte[0]);
          Thread.sleep(50);
          try (ScacheClient alice = cluster.client(0, app, "t")) {
            long start = System.nanoTime();
            alice.registerApplication();
            millis.add((System.nanoTime() - start) / 1_000_000);
          }
        }
      } finally {
        flooding.set(false);
        for (Thread f : flooders) {
          f.join();
        }
      }
      Collections.sort(millis);
      assertTrue(sent.get() > 500, "the flood sent " + sent.get());
      assertTrue(registered.get() <= 5, registered + " of mallory's registrations went through, past her 5");
      assertTrue(millis.get(2) < 100 && millis.get(4) < 1000, "alice's registrations took " + millis + " ms while "
          + sent + " of mallory's were refused");
    }
  }
}
