package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;

/**
 * What a master keeps for the next one, in its state directory and in ZooKeeper (a real server): each
 * shuffle with its latest placement, nothing of a removed shuffle or application; and in ZooKeeper the
 * applications with their secrets and the removed ones.
 */
class ShuffleStoresTest {
  private static final WorkerInfo W1 = new WorkerInfo("w1", "host-1", 17020);
  private static final WorkerInfo W2 = new WorkerInfo("w2", "host-2", 17020);

  private static ShufflePlacement placement(String app, int id, WorkerInfo... order) {
    List<ReduceAssignment> list = new java.util.ArrayList<>();
    for (int r = 0; r < order.length; r++) {
      list.add(new ReduceAssignment(r, order[r], 0, 100L * r));
    }
    return new ShufflePlacement(app, id, CoScheduler.MIN_HEAP, list);
  }

  /** Exercises a store and checks what a store opened afterwards reads back. */
  private static void keepsTheLatestOfEachShuffle(ShuffleStore store, java.util.function.Supplier<ShuffleStore> again) {
    ShuffleSpec a0 = new ShuffleSpec("app-a", 0, 3, 2, PartitionerKind.HASH, 10);
    ShuffleSpec a1 = new ShuffleSpec("app-a", 1, 3, 2, PartitionerKind.RANGE, 11);
    ShuffleSpec a2 = new ShuffleSpec("app-a", 2, 1, 1, PartitionerKind.HASH, 12);
    ShuffleSpec b0 = new ShuffleSpec("app/b:c", 0, 1, 2, PartitionerKind.HASH, 13);
    store.registered(a0);
    store.registered(a1);
    store.registered(a2);
    store.registered(b0);
    store.placed(placement("app-a", 0, W1, W2));
    store.placed(placement("app-a", 0, W2, W2));
    store.placed(placement("app/b:c", 0, W2, W1));
    store.removed(new ShuffleKey("app-a", 2));

    List<ShuffleStore.Stored> read = again.get().load().stream()
        .sorted(Comparator.comparing((ShuffleStore.Stored s) -> s.spec().appId())
            .thenComparingInt(s -> s.spec().shuffleId())).toList();
    assertEquals(List.of(
        new ShuffleStore.Stored(a0, Optional.of(placement("app-a", 0, W2, W2))),
        new ShuffleStore.Stored(a1, Optional.empty()),
        new ShuffleStore.Stored(b0, Optional.of(placement("app/b:c", 0, W2, W1)))), read);

    store.applicationRemoved("app-a");
    assertEquals(List.of("app/b:c"), again.get().load().stream().map(s -> s.spec().appId()).toList());
  }

  @Test
  void stateDirectory_keepsTheLatestPlacementOfEachShuffle(@TempDir Path dir) {
    keepsTheLatestOfEachShuffle(new DirectoryShuffleStore(dir), () -> new DirectoryShuffleStore(dir));
  }

  @Test
  void zooKeeper_keepsShufflesApplicationsAndRemovals() throws Exception {
    try (TestingServer server = new TestingServer(true);
        CuratorFramework zk = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100))) {
      zk.start();
      ZooKeeperState state = new ZooKeeperState(zk, "/scache/state");
      keepsTheLatestOfEachShuffle(state, () -> new ZooKeeperState(zk, "/scache/state"));

      state.registered("app-x", "x".getBytes(StandardCharsets.UTF_8));
      state.registered("app-y", "y".getBytes(StandardCharsets.UTF_8));
      state.removed("app-y", 1234);
      Map<String, byte[]> secrets = new HashMap<>();
      Map<String, Long> removedAt = new HashMap<>();
      new ZooKeeperState(zk, "/scache/state").load(secrets, removedAt);
      assertEquals(List.of("app-x"), List.copyOf(secrets.keySet()));
      assertTrue(java.util.Arrays.equals("x".getBytes(StandardCharsets.UTF_8), secrets.get("app-x")));
      assertEquals(Map.of("app-y", 1234L), removedAt);
      state.forgotten("app-y");
      removedAt.clear();
      new ZooKeeperState(zk, "/scache/state").load(new HashMap<>(), removedAt);
      assertTrue(removedAt.isEmpty());
    }
  }
}
