package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.testing.Await;

/** A worker whose reserve is much smaller than the shuffle: spill, reload, read once, checksums. */
@Timeout(180)
class SpillIT {
  private static final int MIB = 1 << 20;

  private static ScacheConf socketOnly() {
    return ScacheConf.empty().with(ScacheOptions.CLIENT_LOCAL_SHM_ENABLED.key(), "false");
  }

  @Test
  void reserveOfATenthOfTheData_readsEveryBlockBackByteForByte_andMemoryStaysWithinTheReserve() throws Exception {
    long reserve = 8L * MIB;
    long readBudget = 4L * MIB;
    ScacheConf conf = ScacheConf.empty().with(ScacheOptions.WORKER_SPILL_READ_BUFFER.key(), Long.toString(readBudget));
    try (InProcessCluster cluster = InProcessCluster.start(1, reserve, conf);
        ScacheClient c = ScacheClient.create(cluster.clientConf(0).with(ScacheOptions.CLIENT_LOCAL_SHM_ENABLED.key(),
            "false"), "app-tenth", "s".getBytes())) {
      c.registerApplication();
      long shmBefore = rssShmem();
      int maps = 20;
      int reduces = 4;
      c.registerShuffle(0, maps, reduces, PartitionerKind.HASH);
      for (int m = 0; m < maps; m++) {
        for (int r = 0; r < reduces; r++) {
          c.putBlock(new BlockId("app-tenth", 0, m, 0, r), BlockData.bytes(seed(m, r), MIB - 7 * r));
        }
        c.mapFinished(0, m, 0);
        assertWithinReserve(c.workerStats(), reserve, readBudget);
      }
      Map<String, Long> afterPuts = c.workerStats();
      assertEquals(80, afterPuts.get("store.blocks"));
      assertTrue(afterPuts.get("store.spilled.blocks") >= 70, afterPuts.toString());
      for (int r = 0; r < reduces; r++) {
        ReduceInput in = c.getReduceInput(0, r);
        assertEquals(maps, in.blocks().size());
        for (int m = 0; m < maps; m++) {
          assertTrue(BlockData.matches(seed(m, r), MIB - 7 * r, in.blocks().get(m).data()), "map " + m + " reduce "
              + r);
        }
        assertWithinReserve(c.workerStats(), reserve, readBudget);
      }
      for (int m = 0; m < maps; m += 3) {
        assertArrayEquals(BlockData.bytes(seed(m, 1), MIB - 7), c.getBlock(new BlockId("app-tenth", 0, m, 0, 1)));
      }
      long shmGrowth = rssShmem() - shmBefore;
      assertTrue(shmGrowth <= reserve + MIB, "shared memory resident grew by " + shmGrowth + " bytes, reserve "
          + reserve);
      c.removeApplication();
      awaitStat(c, "spill.files", 0);
      assertEquals(0, c.workerStats().get("memory.used.bytes"));
      try (Stream<Path> files = Files.list(cluster.spillDir(0))) {
        assertEquals(0, files.count(), "the application's spill files are gone");
      }
    }
  }

  private static void assertWithinReserve(Map<String, Long> stats, long reserve, long readBudget) {
    assertTrue(stats.get("memory.used.bytes") <= reserve, stats.toString());
    assertTrue(stats.get("store.memory.bytes") <= reserve, stats.toString());
    assertTrue(stats.get("spill.read.buffer.bytes") <= readBudget, stats.toString());
  }

  @Test
  void reduceCommitted_freesItsInputOnEveryWorker_andSpilledBlocksComeBackIntoTheFreedMemory() throws Exception {
    try (InProcessCluster cluster = InProcessCluster.start(1, 4L * MIB);
        ScacheClient c = ScacheClient.create(cluster.clientConf(0), "app-once", "s".getBytes())) {
      c.registerApplication();
      c.registerShuffle(0, 4, 4, PartitionerKind.HASH);
      for (int m = 0; m < 4; m++) {
        for (int r = 0; r < 4; r++) {
          c.putBlock(new BlockId("app-once", 0, m, 0, r), BlockData.bytes(seed(m, r), MIB / 2));
        }
        c.mapFinished(0, m, 0);
      }
      assertTrue(c.workerStats().get("store.spilled.blocks") > 0);
      ReduceInput first = c.getReduceInput(0, 0);
      assertEquals(4, first.blocks().size());
      c.reduceCommitted(0, 0);
      c.reduceCommitted(0, 1);
      awaitStat(c, "store.blocks", 8);
      awaitCondition(() -> c.workerStats().get("spill.reloaded.blocks") > 0, "spilled blocks are loaded back");
      for (int r = 2; r < 4; r++) {
        ReduceInput in = c.getReduceInput(0, r);
        for (int m = 0; m < 4; m++) {
          assertTrue(BlockData.matches(seed(m, r), MIB / 2, in.blocks().get(m).data()));
        }
      }
      c.removeApplication();
    }
  }

  @Test
  void corruptedSpillFile_isReportedAsAMissingBlock_neverServedAsData() throws Exception {
    try (InProcessCluster cluster = InProcessCluster.start(1, 2L * MIB, socketOnly());
        ScacheClient c = ScacheClient.create(cluster.clientConf(0), "app-corrupt", "s".getBytes())) {
      c.registerApplication();
      c.registerShuffle(0, 8, 1, PartitionerKind.HASH);
      for (int m = 0; m < 8; m++) {
        c.putBlock(new BlockId("app-corrupt", 0, m, 0, 0), BlockData.bytes(seed(m, 0), MIB / 2));
        c.mapFinished(0, m, 0);
      }
      assertTrue(c.workerStats().get("store.spilled.blocks") > 0);
      try (Stream<Path> files = Files.list(cluster.spillDir(0))) {
        for (Path f : files.toList()) {
          flipEveryMegabyteQuarter(f);
        }
      }
      ScacheException e = assertThrows(ScacheException.class, () -> c.getReduceInput(0, 0));
      assertEquals(Status.BLOCK_NOT_FOUND, e.status());
      assertTrue(c.workerStats().get("spill.checksum.failures") > 0);
      // the map's output is lost: the read names the map to re-run (the worker knows at once, the master
      // once the worker's report of the loss reaches it)
      ScacheException again = assertThrows(ScacheException.class, () -> c.getReduceInput(0, 0));
      assertEquals(Status.BLOCK_NOT_FOUND, again.status());
      assertTrue(again.getMessage().contains("re-run"), again.getMessage());
      c.removeApplication();
    }
  }

  private static void flipEveryMegabyteQuarter(Path f) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
      for (long at = 100; at < raf.length(); at += MIB / 4) {
        raf.seek(at);
        int b = raf.read();
        raf.seek(at);
        raf.write(b ^ 0x5a);
      }
    }
  }

  static long seed(int map, int reduce) {
    return map * 1000L + reduce;
  }

  /** The process's resident shared memory (the reserve's mapped pages), from /proc. */
  static long rssShmem() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("RssShmem:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    }
    return 0;
  }

  static void awaitStat(ScacheClient c, String name, long value) throws InterruptedException {
    awaitCondition(() -> c.workerStats().get(name) == value, name + " reaches " + value);
  }

  static void awaitCondition(java.util.function.BooleanSupplier ok, String what) {
    Await.until(ok, java.time.Duration.ofSeconds(20), what);
  }
}
