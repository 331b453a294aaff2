package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.auth.Credentials;
import org.scache.common.protocol.GetBlock;
import org.scache.common.protocol.MessageType;
import org.scache.common.protocol.PutBlock;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.UnregisterShuffle;
import org.scache.common.shuffle.PartitionerKind;

/**
 * Captured signed frames are worth nothing: replayed on the same connection, on a new one, or on
 * another daemon, with or without a swapped payload, they are refused, and what the owner stored
 * stays as the owner stored it.
 */
@Timeout(60)
class ReplayIT {
  private static final String APP = "app-replayed";
  private static final byte[] SECRET = "replayed-secret".getBytes(StandardCharsets.UTF_8);
  private static final Credentials OWNER = Credentials.application(APP, SECRET);
  private static InProcessCluster cluster;
  private static ScacheClient owner;

  @BeforeAll
  static void start() throws Exception {
    cluster = InProcessCluster.start(2, 16L << 20, org.scache.common.config.ScacheConf.empty()
        .with(org.scache.common.config.ScacheOptions.SECURITY_PAYLOAD_DIGEST, true));
    owner = cluster.client(0, APP, new String(SECRET, StandardCharsets.UTF_8));
    owner.registerApplication();
  }

  @AfterAll
  static void stop() {
    owner.close();
    cluster.close();
  }

  private static int workerPort(int i) {
    return cluster.worker(i).info().port();
  }

  @Test
  void capturedPut_replayedOnItsOwnConnection_isRefused() throws Exception {
    BlockId block = new BlockId(APP, 1, 0, 0, 0);
    byte[] data = "the owner's bytes".getBytes(StandardCharsets.UTF_8);
    try (RawConnection c = RawConnection.open(workerPort(0))) {
      byte[] captured = c.signed(11, new PutBlock(block), OWNER, data);
      c.send(captured);
      assertEquals(MessageType.ACK.id(), c.read().type());
      c.send(captured);
      RawConnection.Answer replay = c.read();
      assertEquals(Status.AUTH_FAILED, replay.status(), replay.message());
      assertTrue(replay.message().contains("replay"), replay.message());
      // the connection goes on serving its owner's next request
      c.send(c.signed(12, new GetBlock(block), OWNER, new byte[0]));
      assertEquals(MessageType.BLOCK_DATA.id(), c.read().type());
    }
    assertArrayEquals(data, owner.getBlock(block));
  }

  @Test
  void capturedPut_withItsPayloadSwapped_isRefusedByAnotherWorker_andReadsReturnTheOwnersBytes() throws Exception {
    owner.registerShuffle(2, 1, 1, PartitionerKind.HASH);
    BlockId block = new BlockId(APP, 2, 0, 0, 0);
    byte[] data = "the owner's bytes".getBytes(StandardCharsets.UTF_8);
    byte[] captured;
    try (RawConnection c = RawConnection.open(workerPort(0))) {
      captured = c.signed(21, new PutBlock(block), OWNER, data);
      c.send(captured);
      assertEquals(MessageType.ACK.id(), c.read().type());
    }
    byte[] forged = captured.clone();
    byte[] evil = "the attacker's!!!".getBytes(StandardCharsets.UTF_8);
    System.arraycopy(evil, 0, forged, forged.length - evil.length, evil.length);
    long putsBefore = cluster.stat(1, "put.blocks");
    for (byte[] attempt : new byte[][] {captured, forged}) {
      for (int w = 0; w < 2; w++) {
        try (RawConnection attacker = RawConnection.open(workerPort(w))) {
          attacker.send(attempt);
          RawConnection.Answer a = attacker.read();
          assertEquals(Status.AUTH_FAILED, a.status(), "worker " + w + ": " + a.message());
        }
      }
    }
    assertEquals(putsBefore, cluster.stat(1, "put.blocks"), "no replayed put was stored");
    assertArrayEquals(data, owner.getBlock(block));
    try (ScacheClient reader = cluster.client(1, APP, new String(SECRET, StandardCharsets.UTF_8))) {
      // the worker reports the block to the master in the background; once located, it is the owner's
      org.scache.common.testing.Await.until(() -> {
        try {
          return Arrays.equals(data, reader.getBlock(block));
        } catch (ScacheException e) {
          return false;
        }
      }, java.time.Duration.ofSeconds(10), () -> "the owner's block was never read through the other worker");
    }
  }

  @Test
  void payloadChangedInFlight_doesNotMatchTheSignedDigest_andIsNotStored() throws Exception {
    owner.registerShuffle(3, 1, 1, PartitionerKind.HASH);
    BlockId block = new BlockId(APP, 3, 0, 0, 0);
    byte[] data = new byte[64 * 1024];
    Arrays.fill(data, (byte) 7);
    long putsBefore = cluster.stat(1, "put.blocks");
    try (RawConnection c = RawConnection.open(workerPort(1))) {
      byte[] frame = c.signed(31, new PutBlock(block), OWNER, data);
      frame[frame.length - 1000] ^= 1;
      c.send(frame);
      RawConnection.Answer a = c.read();
      assertEquals(Status.AUTH_FAILED, a.status(), a.message());
      assertTrue(a.message().contains("digest"), a.message());
      assertEquals(putsBefore, cluster.stat(1, "put.blocks"), "the changed payload was not stored");
      assertThrows(ScacheException.class, () -> owner.getBlock(block));
      // the same connection still takes the owner's true put
      c.send(c.signed(32, new PutBlock(block), OWNER, data));
      assertEquals(MessageType.ACK.id(), c.read().type());
    }
    try (ScacheClient onWorker1 = cluster.client(1, APP, new String(SECRET, StandardCharsets.UTF_8))) {
      assertArrayEquals(data, onWorker1.getBlock(block));
    }
  }

  @Test
  void putWithoutAPayloadDigest_isRefusedByAWorkerThatRequiresOne() throws Exception {
    BlockId block = new BlockId(APP, 5, 0, 0, 0);
    try (RawConnection c = RawConnection.open(workerPort(0), false)) {
      c.send(c.signed(51, new PutBlock(block), OWNER, new byte[100]));
      RawConnection.Answer a = c.read();
      assertEquals(Status.AUTH_FAILED, a.status(), a.message());
      assertTrue(a.message().contains("scache.security.payload.digest.enabled"), a.message());
    }
  }

  @Test
  void capturedUnregisterShuffle_replayedLater_leavesTheReRegisteredShuffleAlone() throws Exception {
    int shuffle = 4;
    owner.registerShuffle(shuffle, 1, 1, PartitionerKind.HASH);
    byte[] captured;
    try (RawConnection c = RawConnection.open(cluster.master().port())) {
      captured = c.signed(41, new UnregisterShuffle(APP, shuffle), OWNER, new byte[0]);
      c.send(captured);
      assertEquals(MessageType.ACK.id(), c.read().type());
      owner.registerShuffle(shuffle, 1, 1, PartitionerKind.HASH);
      c.send(captured);
      assertEquals(Status.AUTH_FAILED, c.read().status(), "replayed on its own connection");
    }
    try (RawConnection attacker = RawConnection.open(cluster.master().port())) {
      attacker.send(captured);
      assertEquals(Status.AUTH_FAILED, attacker.read().status(), "replayed on a new connection");
    }
    BlockId block = new BlockId(APP, shuffle, 0, 0, 0);
    byte[] data = "after re-registering".getBytes(StandardCharsets.UTF_8);
    owner.putBlock(block, data);
    owner.mapFinished(shuffle, 0, 0);
    java.nio.ByteBuffer read = owner.getReduceInput(shuffle, 0).blocks().get(0).data();
    byte[] bytes = new byte[read.remaining()];
    read.get(bytes);
    assertArrayEquals(data, bytes, "the re-registered shuffle is whole");
  }
}
