package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ReduceInput;
import org.scache.client.ReduceInputParts;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.auth.Credentials;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.network.ConnectionPool;
import org.scache.common.network.Reply;
import org.scache.common.network.ScacheConnection;
import org.scache.common.network.TransportSettings;
import org.scache.common.protocol.CommitLeased;
import org.scache.common.protocol.LeaseMemory;
import org.scache.common.protocol.MemoryLease;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.OpenLocal;
import org.scache.common.protocol.PinBlock;
import org.scache.common.protocol.PinReduceInput;
import org.scache.common.protocol.PinReduceInputPart;
import org.scache.common.protocol.PinnedBlock;
import org.scache.common.protocol.ReleaseLease;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.Unpin;
import org.scache.common.testing.Await;

/**
 * Clients on the worker's host put and get blocks through its shared memory: the bytes survive
 * exactly, other workers read them, every failure falls back to the socket, a dead connection
 * gives its memory back, and no application can use another's leases, pins or blocks.
 */
@Timeout(120)
class SharedMemoryIT {
  private static final Duration WAIT = Duration.ofSeconds(5);
  private static InProcessCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = InProcessCluster.start(2, 256L << 20);
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  private static ScacheClient registered(int worker, String app) {
    ScacheClient c = cluster.client(worker, app, app + "-secret");
    c.registerApplication();
    return c;
  }

  private static Credentials credentials(String app) {
    return Credentials.application(app, (app + "-secret").getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void sharedMemoryPutAndGet_returnTheBytesExactly_andUseNoSocketForTheData() {
    String app = "app-shm-roundtrip";
    long commitsBefore = cluster.stat(0, "shm.commit.blocks");
    long pinsBefore = cluster.stat(0, "shm.pin.blocks");
    int[] sizes = {0, 1, 63, 64, 65, 4096, 100_000, 1 << 20, (1 << 20) + 1, 10 << 20};
    try (ScacheClient c = registered(0, app)) {
      List<CompletableFuture<Void>> puts = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        int size = sizes[i % sizes.length];
        puts.add(c.putBlockAsync(new BlockId(app, 0, i, 0, 0), ByteBuffer.wrap(BlockData.random(size, i))));
        if (size > (1 << 20)) {
          CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).join();
        }
      }
      CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).join();
      byte[] whole = BlockData.random(300_000, 100);
      c.putBlockAsync(new BlockId(app, 0, 100, 0, 0), inParts(whole)).join();
      assertArrayEquals(whole, c.getBlock(new BlockId(app, 0, 100, 0, 0)), "a block put in parts");
      int nonEmpty = 1;
      for (int i = 0; i < 100; i++) {
        int size = sizes[i % sizes.length];
        nonEmpty += size > 0 ? 1 : 0;
        assertArrayEquals(BlockData.random(size, i), c.getBlock(new BlockId(app, 0, i, 0, 0)), "block " + i);
      }
      assertEquals(nonEmpty, cluster.stat(0, "shm.commit.blocks") - commitsBefore);
      assertEquals(nonEmpty, cluster.stat(0, "shm.pin.blocks") - pinsBefore);
      c.removeApplication();
    }
  }

  @Test
  void sharedMemoryPutBlocks_areReadFromAnotherWorker() {
    String app = "app-shm-remote";
    try (ScacheClient local = registered(0, app); ScacheClient remote = cluster.client(1, app, app + "-secret")) {
      for (int m = 0; m < 4; m++) {
        local.putBlock(new BlockId(app, 0, m, 0, 0), BlockData.random(300_000, m));
        local.mapFinished(0, m, 0);
      }
      for (int m = 0; m < 4; m++) {
        assertArrayEquals(BlockData.random(300_000, m), remote.getBlock(new BlockId(app, 0, m, 0, 0)));
      }
      assertEquals(4, remote.getReduceInput(0, 0).blocks().size());
      local.removeApplication();
    }
  }

  @Test
  void reduceInput_isCopiedOutOfSharedMemory_forBlocksHeldHere_andComesInThePayloadForTheOthers() throws Exception {
    String app = "app-shm-reduce-input";
    long pinsBefore = cluster.stat(0, "shm.pin.blocks");
    ScacheConf socketOnly = cluster.clientConf(0).with(ScacheOptions.CLIENT_LOCAL_SHM_ENABLED, false);
    try (ScacheClient here = registered(0, app); ScacheClient there = cluster.client(1, app, app + "-secret");
        ScacheClient overSocket = ScacheClient.create(socketOnly, app, (app + "-secret").getBytes(
            StandardCharsets.UTF_8))) {
      for (int m = 0; m < 6; m++) {
        ScacheClient writer = m < 4 ? here : there;
        writer.putBlock(new BlockId(app, 0, m, 0, 0), BlockData.random(50_000 + m, m));
        writer.mapFinished(0, m, 0);
      }
      long readsBefore = cluster.stat(0, "read.local.blocks");
      ReduceInput viaMemory = here.getReduceInput(0, 0);
      assertTrue(cluster.stat(0, "shm.pin.blocks") - pinsBefore >= 4, "the four blocks put here were pinned");
      assertEquals(4, cluster.stat(0, "read.local.blocks") - readsBefore, "read once, not again over the socket");
      ReduceInput viaSocket = overSocket.getReduceInput(0, 0);
      for (ReduceInput input : List.of(viaMemory, viaSocket)) {
        assertEquals(6, input.blocks().size());
        for (ReduceInput.Block b : input.blocks()) {
          int m = b.blockId().mapId();
          assertEquals(ByteBuffer.wrap(BlockData.random(50_000 + m, m)), b.data(), "map " + m);
        }
      }
      try (Raw raw = new Raw(0)) {
        ScacheException e = assertThrows(ScacheException.class,
            () -> raw.call(new PinReduceInput(app, 0, 0, 0), app));
        assertEquals(Status.INVALID_ARGUMENT, e.status(), "the shared memory must be opened first");
      }
      here.removeApplication();
    }
    awaitUsedBytes(0, 0); // no pin is left holding a block of the removed application
  }

  @Test
  void reduceInputReadInParts_givesWhatIsHereFirst_thenTheRest_eachBlockOnce_asTheWholeReadDoes() throws Exception {
    String app = "app-shm-reduce-parts";
    ScacheConf socketOnly = cluster.clientConf(0).with(ScacheOptions.CLIENT_LOCAL_SHM_ENABLED, false);
    try (ScacheClient here = registered(0, app); ScacheClient there = cluster.client(1, app, app + "-secret");
        ScacheClient overSocket = ScacheClient.create(socketOnly, app, (app + "-secret").getBytes(
            StandardCharsets.UTF_8))) {
      for (int m = 0; m < 6; m++) {
        ScacheClient writer = m % 3 == 2 ? there : here;
        writer.putBlock(new BlockId(app, 0, m, 0, 0), BlockData.random(40_000 + m, m));
        writer.mapFinished(0, m, 0);
      }
      long readsBefore = cluster.stat(0, "read.local.blocks");
      ReduceInputParts parts = here.readReduceInputInParts(0, 0);
      ReduceInput first = parts.next();
      assertEquals(List.of(0, 1, 3, 4), mapsOf(first), "the blocks held here come first, without a fetch");
      ReduceInput second = parts.next();
      assertEquals(List.of(2, 5), mapsOf(second), "then the rest, from their holder");
      assertEquals(List.of(), parts.next().blocks(), "then nothing: the input is whole");
      assertEquals(List.of(), parts.next().blocks());
      assertEquals(4, cluster.stat(0, "read.local.blocks") - readsBefore, "each block held here read once");
      for (ReduceInput part : List.of(first, second)) {
        for (ReduceInput.Block b : part.blocks()) {
          int m = b.blockId().mapId();
          assertEquals(ByteBuffer.wrap(BlockData.random(40_000 + m, m)), b.data(), "map " + m);
          assertTrue(b.data().isDirect(), "a part's blocks lie outside the heap");
          assertEquals(part == first, b.data().isReadOnly(), "the blocks held here are read in place, "
              + "the fetched ones from the client's reusable buffers");
        }
        part.release();
        part.release(); // a second release gives nothing back twice
      }
      // the released buffers (and unpinned blocks) give the next read's blocks, byte for byte
      ReduceInputParts again = here.readReduceInputInParts(0, 0);
      List<Integer> seen = new java.util.ArrayList<>();
      for (ReduceInput part = again.next(); !part.blocks().isEmpty(); part = again.next()) {
        for (ReduceInput.Block b : part.blocks()) {
          int m = b.blockId().mapId();
          assertEquals(ByteBuffer.wrap(BlockData.random(40_000 + m, m)), b.data(), "map " + m + ", read again");
          seen.add(m);
        }
        part.release();
      }
      assertEquals(List.of(0, 1, 2, 3, 4, 5), seen.stream().sorted().toList());

      ReduceInputParts socketParts = overSocket.readReduceInputInParts(0, 0);
      assertEquals(List.of(0, 1, 2, 3, 4, 5), mapsOf(socketParts.next()), "over the socket, the whole input at once");
      assertEquals(List.of(), socketParts.next().blocks());
      try (Raw raw = new Raw(0)) {
        ScacheException e = assertThrows(ScacheException.class,
            () -> raw.call(new PinReduceInputPart(app, 0, 0, 0, List.of(), List.of()), app));
        assertEquals(Status.INVALID_ARGUMENT, e.status(), "the shared memory must be opened first");
      }
      here.removeApplication();
    }
    awaitUsedBytes(0, 0);
  }

  /** {@code whole} as three parts of uneven sizes, each a view into a larger array. */
  private static List<ByteBuffer> inParts(byte[] whole) {
    int a = whole.length / 7;
    int b = whole.length / 2;
    byte[] padded = new byte[whole.length + 10];
    System.arraycopy(whole, 0, padded, 5, whole.length);
    return List.of(ByteBuffer.wrap(padded, 5, a), ByteBuffer.wrap(padded, 5 + a, b - a),
        ByteBuffer.wrap(padded, 5 + b, whole.length - b));
  }

  private static List<Integer> mapsOf(ReduceInput input) {
    return input.blocks().stream().map(b -> b.blockId().mapId()).toList();
  }

  @Test
  void duplicateCommits_areIdempotent_andKeepTheFirstBytes() throws Exception {
    String app = "app-shm-dup";
    BlockId id = new BlockId(app, 0, 0, 0, 0);
    try (ScacheClient c = registered(0, app)) {
      long dupBefore = cluster.stat(0, "put.duplicates");
      c.putBlock(id, BlockData.random(5000, 1));
      c.putBlock(id, BlockData.random(5000, 2));
      assertArrayEquals(BlockData.random(5000, 1), c.getBlock(id));
      try (Raw raw = new Raw(0)) {
        raw.call(new OpenLocal(app), app);
        MemoryLease lease = raw.call(new LeaseMemory(app, 1 << 16), app)
            .as(MemoryLease.class);
        raw.call(new CommitLeased(id, lease.leaseId(), lease.offset(), 5000), app);
        raw.call(new CommitLeased(id, lease.leaseId(), lease.offset() + 8192, 5000), app);
        raw.call(new ReleaseLease(lease.leaseId()), app);
      }
      assertEquals(3, cluster.stat(0, "put.duplicates") - dupBefore);
      assertArrayEquals(BlockData.random(5000, 1), c.getBlock(id));
      c.removeApplication();
    }
    awaitUsedBytes(0, 0);
  }

  @Test
  void clientWithSharedMemoryOff_usesTheSocket_andStillWorks() {
    String app = "app-shm-client-off";
    long commitsBefore = cluster.stat(0, "shm.commit.blocks");
    long pinsBefore = cluster.stat(0, "shm.pin.blocks");
    ScacheConf conf = cluster.clientConf(0).with(ScacheOptions.CLIENT_LOCAL_SHM_ENABLED, false);
    try (ScacheClient c = ScacheClient.create(conf, app, (app + "-secret").getBytes(StandardCharsets.UTF_8))) {
      c.registerApplication();
      c.putBlock(new BlockId(app, 0, 0, 0, 0), BlockData.random(70_000, 3));
      assertArrayEquals(BlockData.random(70_000, 3), c.getBlock(new BlockId(app, 0, 0, 0, 0)));
      byte[] whole = BlockData.random(70_000, 4);
      c.putBlockAsync(new BlockId(app, 0, 1, 0, 0), inParts(whole)).join();
      assertArrayEquals(whole, c.getBlock(new BlockId(app, 0, 1, 0, 0)), "a block put in parts");
      c.removeApplication();
    }
    assertEquals(commitsBefore, cluster.stat(0, "shm.commit.blocks"));
    assertEquals(pinsBefore, cluster.stat(0, "shm.pin.blocks"));
  }

  @Test
  void workerWithSharedMemoryOff_refusesOpenLocal_andItsClientsUseTheSocket() throws Exception {
    ScacheConf off = ScacheConf.empty().with(ScacheOptions.WORKER_LOCAL_SHM_ENABLED, false);
    try (InProcessCluster plain = InProcessCluster.start(1, 16L << 20, off);
        ScacheClient c = plain.client(0, "app-plain", "app-plain-secret")) {
      c.registerApplication();
      for (int i = 0; i < 3; i++) {
        c.putBlock(new BlockId("app-plain", 0, i, 0, 0), BlockData.random(200_000, i));
      }
      for (int i = 0; i < 3; i++) {
        assertArrayEquals(BlockData.random(200_000, i), c.getBlock(new BlockId("app-plain", 0, i, 0, 0)));
      }
      assertEquals(0, plain.worker(0).stats().get("shm.commit.blocks"));
      try (ConnectionPool pool = new ConnectionPool(TransportSettings.defaults(), "raw")) {
        ScacheConnection conn = pool.get("127.0.0.1", plain.worker(0).info().port()).join();
        ScacheException e = ScacheException.from(assertThrows(Exception.class, () -> conn.call(
            new OpenLocal("app-plain"), Optional.of(credentials("app-plain")), WAIT).join()));
        assertEquals(Status.INVALID_ARGUMENT, e.status());
      }
    }
  }

  @Test
  void closingAConnectionMidLease_givesTheMemoryBack() throws Exception {
    String app = "app-shm-killed";
    try (ScacheClient c = registered(1, app)) {
      long before = cluster.stat(1, "memory.used.bytes");
      Raw raw = new Raw(1);
      raw.call(new OpenLocal(app), app);
      MemoryLease lease = raw.call(new LeaseMemory(app, 4 << 20), app).as(MemoryLease.class);
      raw.call(new CommitLeased(new BlockId(app, 0, 0, 0, 0), lease.leaseId(), lease.offset(), 1000), app);
      PinnedBlock pin = raw.call(new PinBlock(new BlockId(app, 0, 0, 0, 0)), app)
          .as(PinnedBlock.class);
      assertEquals(lease.offset(), pin.offset());
      assertEquals(before + (4 << 20), cluster.stat(1, "memory.used.bytes"));
      raw.close();
      awaitUsedBytes(1, before + 1024);
      c.removeApplication();
    }
  }

  @Test
  void readsAfterRemoveApplication_failCleanly() throws Exception {
    String app = "app-shm-removed";
    BlockId id = new BlockId(app, 0, 0, 0, 0);
    try (ScacheClient c = registered(0, app)) {
      c.putBlock(id, BlockData.random(100_000, 9));
      c.removeApplication();
      // the master tells the workers in the background; a read may still succeed until then
      ScacheException[] failed = new ScacheException[1];
      Await.until(() -> {
        try {
          assertArrayEquals(BlockData.random(100_000, 9), c.getBlock(id));
          return false;
        } catch (ScacheException refused) {
          failed[0] = refused;
          return true;
        }
      }, WAIT, "reads fail after the removal");
      ScacheException e = failed[0];
      assertTrue(e.status() == Status.UNKNOWN_APPLICATION || e.status() == Status.BLOCK_NOT_FOUND
          || e.status() == Status.AUTH_FAILED, e.toString());
    }
  }

  @Test
  void anotherApplication_isRefusedOnEverySharedMemoryMessage() throws Exception {
    String owner = "app-shm-owner";
    String other = "app-shm-other";
    BlockId block = new BlockId(owner, 0, 0, 0, 0);
    try (ScacheClient o = registered(0, owner); ScacheClient x = registered(0, other); Raw raw = new Raw(0)) {
      o.putBlock(block, BlockData.random(1000, 4));
      raw.call(new OpenLocal(owner), owner);
      MemoryLease lease = raw.call(new LeaseMemory(owner, 1 << 16), owner)
          .as(MemoryLease.class);
      PinnedBlock pin = raw.call(new PinBlock(block), owner).as(PinnedBlock.class);
      long failuresBefore = cluster.stat(0, "auth.failures");
      List<Supplier<Message>> requests = List.of(
          () -> new OpenLocal(owner),
          () -> new LeaseMemory(owner, 4096),
          () -> new CommitLeased(block, lease.leaseId(), lease.offset(), 10),
          () -> new CommitLeased(new BlockId(other, 0, 0, 0, 0), lease.leaseId(), lease.offset(), 10),
          () -> new ReleaseLease(lease.leaseId()),
          () -> new PinBlock(block),
          () -> new PinReduceInput(owner, 0, 0, 0),
          () -> new PinReduceInputPart(owner, 0, 0, 0, List.of(), List.of()),
          () -> new Unpin(List.of(pin.pinId())));
      for (Supplier<Message> r : requests) {
        ScacheException e = assertThrows(ScacheException.class, () -> raw.call(r.get(), other), r.get().toString());
        assertEquals(Status.AUTH_FAILED, e.status(), r.get() + ": " + e.getMessage());
      }
      assertTrue(cluster.stat(0, "auth.failures") - failuresBefore >= requests.size() - 1);
      // the owner's lease and pin are untouched, and ids it does not hold are invalid
      raw.call(new CommitLeased(new BlockId(owner, 0, 1, 0, 0), lease.leaseId(), lease.offset(), 10), owner);
      raw.call(new Unpin(List.of(pin.pinId())), owner);
      raw.call(new ReleaseLease(lease.leaseId()), owner);
      for (Message bad : List.of(new ReleaseLease(lease.leaseId()), new Unpin(List.of(pin.pinId())),
          new CommitLeased(block, 424242, 0, 10))) {
        ScacheException e = assertThrows(ScacheException.class, () -> raw.call(bad, owner));
        assertEquals(Status.INVALID_ARGUMENT, e.status(), bad.toString());
      }
      assertArrayEquals(BlockData.random(1000, 4), o.getBlock(block));
      o.removeApplication();
      x.removeApplication();
    }
  }

  @Test
  void blocksReadInPlace_stayPinned_untilTheReaderReleasesEach() throws Exception {
    String app = "app-shm-in-place";
    // blocks put over the socket, so that the only memory in use is theirs (no lease)
    ScacheConf putsOverSocket = cluster.clientConf(0).with(ScacheOptions.CLIENT_LOCAL_SHM_ENABLED, false);
    try (ScacheClient here = registered(0, app); ScacheClient putter = ScacheClient.create(putsOverSocket, app,
        (app + "-secret").getBytes(StandardCharsets.UTF_8))) {
      awaitUsedBytes(0, 0); // nothing else holds the worker's memory: what is in use below is these blocks
      for (int m = 0; m < 3; m++) {
        putter.putBlock(new BlockId(app, 0, m, 0, 0), BlockData.random(50_000, 10 + m));
        putter.mapFinished(0, m, 0);
      }
      long block = cluster.stat(0, "memory.used.bytes") / 3;
      assertTrue(block >= 50_000, "each block takes " + block + " bytes");
      ReduceInputParts parts = here.readReduceInputInParts(0, 0);
      ReduceInput part = parts.next();
      assertEquals(List.of(0, 1, 2), mapsOf(part));
      assertTrue(part.blocks().stream().allMatch(b -> b.data().isReadOnly()), "read where they lie");

      here.removeApplication();
      assertEquals(3 * block, cluster.stat(0, "memory.used.bytes"), "pinned blocks outlive their application");
      for (ReduceInput.Block b : part.blocks()) {
        int m = b.blockId().mapId();
        assertEquals(ByteBuffer.wrap(BlockData.random(50_000, 10 + m)), b.data(), "map " + m + ", still whole");
      }
      part.release(part.blocks().get(0));
      part.release(part.blocks().get(0)); // once only
      awaitUsedBytes(0, 2 * block);
      part.release();
      parts.close();
      awaitUsedBytes(0, 0);
    }
  }


  private static void awaitUsedBytes(int worker, long expected) {
    Await.until(() -> cluster.stat(worker, "memory.used.bytes") == expected, WAIT,
        () -> "memory in use on worker " + worker + ": expected " + expected + " but was "
            + cluster.stat(worker, "memory.used.bytes"));
  }

  /** One raw connection to a worker, for requests the client does not send as such. */
  private static final class Raw implements AutoCloseable {
    private final ConnectionPool pool = new ConnectionPool(TransportSettings.defaults(), "raw");
    private final ScacheConnection connection;

    Raw(int worker) {
      connection = pool.get("127.0.0.1", cluster.worker(worker).info().port()).join();
    }

    Reply call(Message m, String signedBy) {
      try {
        Reply r = connection.call(m, Optional.of(credentials(signedBy)), WAIT).join();
        r.payload().release();
        return r;
      } catch (RuntimeException e) {
        throw ScacheException.from(e);
      }
    }

    @Override
    public void close() {
      pool.close();
    }
  }
}
