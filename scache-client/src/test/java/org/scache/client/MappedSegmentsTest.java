package org.scache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scache.common.ScacheException;
import org.scache.common.protocol.LocalSegment;
import org.scache.common.protocol.PinnedBlock;
import org.scache.common.protocol.Status;

class MappedSegmentsTest {
  @TempDir
  Path dir;

  private LocalSegment segment(int index, int size) throws IOException {
    Path file = dir.resolve("segment-" + index + ".mem");
    if (!Files.exists(file)) {
      Files.write(file, new byte[size]);
    }
    return new LocalSegment(index, file.toString(), size);
  }

  @Test
  void bytesCopiedIn_comeOutAtTheirPinnedPlace() throws IOException {
    try (MappedSegments mapped = new MappedSegments()) {
      List<MappedByteBuffer> segments = mapped.map(List.of(segment(0, 4096), segment(1, 8192)));
      mapped.copyIn(segments, 1, 100, ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5}));
      byte[] out = new byte[8];
      mapped.copyOut(segments, new PinnedBlock(7, 1, 101, 3), out, 4);
      assertArrayEquals(new byte[] {0, 0, 0, 0, 2, 3, 4, 0}, out);
    }
  }

  @Test
  void aFileListedAgain_isNotMappedAgain() throws IOException {
    try (MappedSegments mapped = new MappedSegments()) {
      MappedByteBuffer first = mapped.map(List.of(segment(0, 4096))).get(0);
      assertSame(first, mapped.map(List.of(segment(0, 4096))).get(0));
    }
  }

  @Test
  void aPinOutsideTheSegments_orLargerThanTheArray_isMalformed() throws IOException {
    try (MappedSegments mapped = new MappedSegments()) {
      List<MappedByteBuffer> segments = mapped.map(List.of(segment(0, 4096)));
      for (PinnedBlock bad : List.of(new PinnedBlock(1, 1, 0, 10),
          new PinnedBlock(1, 0, 4090, 10), new PinnedBlock(1, 0, 0, 20))) {
        ScacheException e = assertThrows(ScacheException.class, () -> mapped.copyOut(segments, bad, new byte[16], 0));
        assertEquals(Status.MALFORMED_MESSAGE, e.status(), bad.toString());
      }
    }
  }

  @Test
  void segmentsListedOutOfOrder_orOfAnotherSize_areRefused() throws IOException {
    try (MappedSegments mapped = new MappedSegments()) {
      assertThrows(IOException.class, () -> mapped.map(List.of(segment(1, 4096))));
      LocalSegment real = segment(0, 4096);
      assertThrows(IOException.class, () -> mapped.map(List.of(new LocalSegment(0, real.path(), 8192))));
      assertThrows(IOException.class, () -> mapped.map(List.of()));
    }
  }

  @Test
  void afterClose_copiesFailAsAClosedConnection() throws IOException {
    MappedSegments mapped = new MappedSegments();
    List<MappedByteBuffer> segments = mapped.map(List.of(segment(0, 4096)));
    mapped.close();
    ScacheException e = assertThrows(ScacheException.class,
        () -> mapped.copyIn(segments, 0, 0, ByteBuffer.wrap(new byte[] {1})));
    assertEquals(Status.CONNECTION_FAILED, e.status());
    e = assertThrows(ScacheException.class,
        () -> mapped.copyOut(segments, new PinnedBlock(1, 0, 0, 1), new byte[1], 0));
    assertEquals(Status.CONNECTION_FAILED, e.status());
  }
}
