package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.Status;

/**
 * After the master restarts, an application id still belongs to whoever registered it: an
 * impostor can neither register it with another secret nor remove it, and the owner goes on.
 */
@Timeout(90)
class MasterRestartIdentityIT {
  private static final String APP = "app-owned";
  private InProcessCluster cluster;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void restartedMaster_keepsEachApplicationIdForItsOwner(@TempDir Path state) throws Exception {
    cluster = InProcessCluster.start(1, 16L << 20, ScacheConf.empty()
        .with(ScacheOptions.MASTER_STATE_DIR, state.resolve("master").toString()));
    BlockId block = new BlockId(APP, 0, 0, 0, 0);
    byte[] data = "the owner's block".getBytes(StandardCharsets.UTF_8);
    try (ScacheClient owner = cluster.client(0, APP, "owner-secret")) {
      owner.registerApplication();
      owner.putBlock(block, data);
      owner.mapFinished(0, 0, 0);
    }
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
        state.resolve("master").resolve("applications.journal"))), "the secrets are the master user's only");

    cluster.restartMaster();
    cluster.awaitRegistered(Duration.ofSeconds(20));

    try (ScacheClient impostor = cluster.client(0, APP, "impostor-secret")) {
      ScacheException e = assertThrows(ScacheException.class, impostor::registerApplication);
      assertEquals(Status.AUTH_FAILED, e.status(), e.getMessage());
      e = assertThrows(ScacheException.class, impostor::removeApplication);
      assertEquals(Status.AUTH_FAILED, e.status(), e.getMessage());
    }
    try (ScacheClient owner = cluster.client(0, APP, "owner-secret")) {
      owner.registerApplication();
      assertArrayEquals(data, owner.getBlock(block), "the impostor removed nothing");
      owner.removeApplication();
    }

    cluster.restartMaster();
    try (ScacheClient late = cluster.client(0, APP, "owner-secret")) {
      ScacheException e = assertThrows(ScacheException.class, late::registerApplication);
      assertEquals(Status.INVALID_ARGUMENT, e.status(), "a removed id stays removed across a restart too");
      assertTrue(e.getMessage().contains("removed"), e.getMessage());
    }
  }
}
