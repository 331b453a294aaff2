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
import java.util.List;
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
}
