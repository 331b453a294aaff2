package org.scache.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.scache.client.BlockBuffers;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.shuffle.PartitionerKind;

/**
 * A map task's partition buffers take the task's memory as it is granted, in chunks; a partition past
 * it goes on in a local file and is still stored whole, byte for byte, and the file is gone afterwards;
 * chunks go back to the executor's pool once stored, and the next map's partitions in them are stored
 * byte for byte too.
 */
class PartitionBlockWriterIT {
  private static final long GRANTABLE = 256 * 1024;
  private final BlockBuffers pool = new BlockBuffers(64L << 20);

  /** A client of {@code app} on the one worker, with shuffle 0 (two maps, {@code reduces} reduces) registered. */
  private static ScacheClient registered(ScacheServices scache, String app, int reduces) {
    ScacheConf conf = ScacheConf.empty()
        .with(ScacheOptions.CLIENT_MASTER_ADDRESS, scache.masterAddress())
        .with(ScacheOptions.CLIENT_WORKER_ADDRESS, "127.0.0.1:" + scache.workerPort(0));
    ScacheClient client = ScacheClient.create(conf, app, "secret".getBytes(StandardCharsets.UTF_8));
    client.registerApplication();
    client.registerShuffle(0, 2, reduces, PartitionerKind.HASH);
    return client;
  }

  @Test
  void aPartitionPastTheTasksMemory_goesOnInAFile_andIsStoredWhole() throws Exception {
    String app = "app-partition-files";
    try (ScacheServices scache = ScacheServices.start(List.of("127.0.0.1"), 0, 64L << 20)) {
      try (ScacheClient client = registered(scache, app, 2)) {
        long[] granted = {0};
        PartitionMemory memory = PartitionMemory.from(new PartitionMemory.Source() {
          @Override
          public long acquire(long bytes) {
            long g = Math.min(bytes, GRANTABLE - granted[0]);
            granted[0] += g;
            return g;
          }

          @Override
          public void free(long bytes) {
            granted[0] -= bytes;
          }
        });
        Path dir = Files.createTempDirectory("partition-files");
        PartitionBlockWriter out = new PartitionBlockWriter(client, app, 0, 0, 0, 2, 64L << 20, memory, pool,
            () -> {
              try {
                return Files.createTempFile(dir, "partition", ".tmp").toFile();
              } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
        byte[] big = new byte[1 << 20];
        byte[] small = new byte[10_000];
        new SplittableRandom(1).nextBytes(big);
        new SplittableRandom(2).nextBytes(small);
        OutputStream p0 = out.getPartitionWriter(0).openStream();
        OutputStream p1 = out.getPartitionWriter(1).openStream();
        for (int off = 0; off < big.length; off += 4096) {
          p0.write(big, off, 4096);
          if (off < small.length) {
            p1.write(small, off, Math.min(4096, small.length - off));
          }
        }
        p0.close();
        p1.close();
        long[] lengths = out.commitAllPartitions(new long[0]).getPartitionLengths();
        out.whenStored().join();

        assertArrayEquals(new long[] {big.length, small.length}, lengths);
        assertTrue(out.spilledBytes() > 0, "the big partition went on in a file");
        assertArrayEquals(big, client.getBlock(new BlockId(app, 0, 0, 0, 0)));
        assertArrayEquals(small, client.getBlock(new BlockId(app, 0, 0, 0, 1)));
        try (var files = Files.list(dir)) {
          assertEquals(0, files.count(), "the partition's file is deleted once it is put");
        }
        memory.close();
        assertEquals(0, granted[0], "the task's memory is given back");
        client.removeApplication();
      }
    }
  }

  @Test
  void partitionsWrittenInPiecesOfEverySize_areStoredByteForByte_acrossChunksReusedByTheNextMap() throws Exception {
    String app = "app-partition-chunks";
    try (ScacheServices scache = ScacheServices.start(List.of("127.0.0.1"), 0, 64L << 20)) {
      try (ScacheClient client = registered(scache, app, 3)) {
        // past several chunks (32 KiB doubling to 256 KiB), one byte short of one, and exactly one
        int[] sizes = {(3 << 20) + 17, (32 << 10) - 1, 32 << 10};
        SplittableRandom random = new SplittableRandom(3);
        byte[][][] data = new byte[2][sizes.length][];
        long[] pooled = new long[2];
        for (int map = 0; map < 2; map++) {
          PartitionBlockWriter out = new PartitionBlockWriter(client, app, 0, map, 0, 3, 1L << 20, pool);
          for (int p = 0; p < sizes.length; p++) {
            // the second map's partitions are shorter: what it writes into reused chunks is all a block holds
            data[map][p] = new byte[sizes[p] - map * 5];
            random.nextBytes(data[map][p]);
            writeInRandomPieces(out.getPartitionWriter(p).openStream(), data[map][p], random);
          }
          long[] lengths = out.commitAllPartitions(new long[0]).getPartitionLengths();
          out.whenStored().join();
          for (int p = 0; p < sizes.length; p++) {
            assertEquals(data[map][p].length, lengths[p]);
          }
          assertEquals(0, out.spilledBytes());
          assertEquals(0, pool.lentBytes(), "every chunk of a stored partition is given back");
          pooled[map] = pool.pooledBytes();
        }
        // each map holds 3.1 MB at most at once; the pool's 4 MiB chunks are reused, not added to
        assertTrue(pooled[0] <= 8 << 20 && pooled[1] <= 8 << 20, "the second map writes into memory the first "
            + "gave back: " + pooled[0] + " then " + pooled[1] + " bytes pooled");
        for (int map = 0; map < 2; map++) {
          for (int p = 0; p < sizes.length; p++) {
            assertArrayEquals(data[map][p], client.getBlock(new BlockId(app, 0, map, 0, p)), "map " + map
                + ", partition " + p);
          }
        }
        client.removeApplication();
      }
    }
  }

  private static void writeInRandomPieces(OutputStream stream, byte[] data, SplittableRandom random)
      throws java.io.IOException {
    int at = 0;
    while (at < data.length) {
      int n = Math.min(data.length - at, random.nextInt(3) == 0 ? 1 : random.nextInt(100_000));
      if (n == 1) {
        stream.write(data[at]);
      } else {
        stream.write(data, at, n);
      }
      at += n;
    }
    stream.close();
  }
}
