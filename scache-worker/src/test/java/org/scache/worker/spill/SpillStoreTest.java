package org.scache.worker.spill;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpillStoreTest {
  @TempDir
  Path dir;

  private static ByteBuf bytes(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return Unpooled.wrappedBuffer(b);
  }

  private static byte[] readBack(SpillStore s, SpillStore.Location at) throws Exception {
    ByteBuf target = Unpooled.buffer(at.length());
    s.read(at, target);
    byte[] out = new byte[target.readableBytes()];
    target.readBytes(out);
    return out;
  }

  @Test
  void write_thenRead_returnsTheSameBytes_appendedSequentiallyToOneFile() throws Exception {
    try (SpillStore s = new SpillStore(List.of(dir), "w", 0, 1 << 20)) {
      ByteBuf a = bytes(1000, 1);
      ByteBuf b = bytes(3000, 2);
      SpillStore.Location la = s.write(a).orElseThrow();
      SpillStore.Location lb = s.write(b).orElseThrow();
      assertEquals(la.file(), lb.file());
      assertEquals(1000, lb.offset());
      assertArrayEquals(a.array(), readBack(s, la));
      assertArrayEquals(b.array(), readBack(s, lb));
      assertEquals(4000, s.bytesOnDisk());
    }
  }

  @Test
  void corruptedByteOnDisk_isDetectedByTheChecksum() throws Exception {
    try (SpillStore s = new SpillStore(List.of(dir), "w", 0, 1 << 20)) {
      SpillStore.Location at = s.write(bytes(4096, 3)).orElseThrow();
      try (RandomAccessFile f = new RandomAccessFile(at.file().path().toFile(), "rw")) {
        f.seek(at.offset() + 100);
        int was = f.read();
        f.seek(at.offset() + 100);
        f.write(was ^ 0x01);
      }
      assertThrows(SpillStore.ChecksumMismatchException.class, () -> readBack(s, at));
    }
  }

  @Test
  void writeBeyondCapacity_isRefused_untilSpaceIsFreed() throws Exception {
    try (SpillStore s = new SpillStore(List.of(dir), "w", 10_000, 4000)) {
      SpillStore.Location a = s.write(bytes(4000, 1)).orElseThrow();
      SpillStore.Location b = s.write(bytes(4000, 2)).orElseThrow();
      assertTrue(s.write(bytes(4000, 3)).isEmpty(), "8000 + 4000 bytes exceed a capacity of 10000");
      s.free(a);
      assertEquals(4000, s.bytesOnDisk());
      assertTrue(s.write(bytes(4000, 3)).isPresent());
      s.free(b);
    }
  }

  @Test
  void fileWithNoLiveBlock_isDeleted_andFilesRotateOverTheDirectories() throws Exception {
    Path other = dir.resolve("second");
    try (SpillStore s = new SpillStore(List.of(dir.resolve("first"), other), "w", 0, 4096)) {
      SpillStore.Location a = s.write(bytes(4096, 1)).orElseThrow();
      SpillStore.Location b = s.write(bytes(4096, 2)).orElseThrow();
      assertFalse(a.file().path().getParent().equals(b.file().path().getParent()));
      assertEquals(2, s.fileCount());
      s.free(a);
      assertFalse(Files.exists(a.file().path()));
      s.free(b);
      assertEquals(0, s.fileCount());
      assertEquals(0, s.bytesOnDisk());
      assertFalse(Files.exists(b.file().path()));
    }
  }

  @Test
  void start_removesFilesOfDeadWorkerProcesses_andKeepsOthers() throws Exception {
    Path stale = Files.createFile(dir.resolve("scache-spill-w-" + Integer.MAX_VALUE + "-1.0.data"));
    Path unrelated = Files.createFile(dir.resolve("notes.txt"));
    try (SpillStore s = new SpillStore(List.of(dir), "w", 0, 4096)) {
      assertFalse(Files.exists(stale), "a crashed worker's spill file is removed at start");
      assertTrue(Files.exists(unrelated));
      assertEquals(0, s.liveBytes(), "and none of its bytes is counted");
    }
  }

  @Test
  void close_deletesEveryFile() throws Exception {
    SpillStore s = new SpillStore(List.of(dir), "w", 0, 4096);
    s.write(bytes(5000, 1)).orElseThrow();
    s.write(bytes(100, 2)).orElseThrow();
    s.close();
    try (var files = Files.list(dir)) {
      assertEquals(0, files.count());
    }
  }

  /** Writes 2 KiB blocks until the store refuses one; returns where they went. */
  private static List<SpillStore.Location> fill(SpillStore s) {
    List<SpillStore.Location> written = new ArrayList<>();
    for (int i = 0; ; i++) {
      Optional<SpillStore.Location> at = s.write(bytes(2048, i));
      if (at.isEmpty()) {
        return written;
      }
      written.add(at.get());
    }
  }

  /** Moves the live blocks of the sparse files to the end of the store, as the worker's compaction does. */
  private static void compact(SpillStore s, Map<SpillStore.Location, byte[]> live) throws Exception {
    for (SpillFile f : s.sparseFiles(0.25)) {
      for (SpillStore.Location at : List.copyOf(live.keySet())) {
        if (at.file() == f) {
          byte[] b = readBack(s, at);
          SpillStore.Location to = s.write(Unpooled.wrappedBuffer(b)).orElseThrow();
          s.free(at);
          live.remove(at);
          live.put(to, b);
        }
      }
    }
  }

  @Test
  void aSmallLiveBlock_inTheFileBeingAppendedTo_doesNotPinItsDeadSpace_whenFilesAreLargerThanTheCapacity()
      throws Exception {
    // a capacity of 64 KiB with files of 256 KiB: scaled down from 64 MB of spill capacity and 256 MB files
    try (SpillStore s = new SpillStore(List.of(dir), "w", 64 << 10, 256 << 10)) {
      assertEquals(16 << 10, s.fileBytes(), "a file is at most a quarter of the capacity");
      List<SpillStore.Location> first = new ArrayList<>();
      for (int i = 0; i < 31; i++) {
        first.add(s.write(bytes(2048, i)).orElseThrow());
      }
      Map<SpillStore.Location, byte[]> live = new HashMap<>();
      ByteBuf small = bytes(39, 99);
      SpillStore.Location smallAt = s.write(small).orElseThrow();
      live.put(smallAt, small.array());
      assertTrue(s.write(bytes(2048, 31)).isEmpty(), "31 blocks of 2 KiB and 39 bytes fill 64 KiB");
      assertEquals(first.get(30).file(), smallAt.file(), "the small block is in the file being appended to");
      first.forEach(s::free);
      assertTrue(s.bytesOnDisk() > 39, "the small block's file still holds the dead blocks around it");

      compact(s, live);

      assertEquals(39, s.bytesOnDisk(), "the dead space is given back");
      assertEquals(1, s.fileCount());
      SpillStore.Location moved = live.keySet().iterator().next();
      assertArrayEquals(small.array(), readBack(s, moved));
      assertEquals(31, fill(s).size(), "the next fill gets as many blocks as the first");
    }
  }

  @Test
  void theFileBeingAppendedTo_isSealed_onceAQuarterOfItIsDead_andCanThenBeCompacted() throws Exception {
    try (SpillStore s = new SpillStore(List.of(dir), "w", 0, 16 << 10)) {
      SpillStore.Location small = s.write(bytes(39, 1)).orElseThrow();
      List<SpillStore.Location> blocks = List.of(s.write(bytes(2048, 2)).orElseThrow(),
          s.write(bytes(2048, 3)).orElseThrow(), s.write(bytes(2048, 4)).orElseThrow());
      s.free(blocks.get(0));
      assertTrue(s.sparseFiles(0.25).isEmpty(), "2 KiB dead of a 16 KiB file: it is appended to still");
      assertEquals(small.file(), s.write(bytes(10, 5)).orElseThrow().file());
      s.free(blocks.get(1));
      s.free(blocks.get(2));

      assertEquals(List.of(small.file()), s.sparseFiles(0.25), "4 KiB dead: sealed, and sparse, so compacted");
      assertTrue(small.file().isSealed());
      assertFalse(small.file() == s.write(bytes(10, 6)).orElseThrow().file(), "the next block starts a new file");
    }
  }
}
