package org.scache.common.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The plain-Java buffer writes the bytes Netty's big-endian buffers write, and grows as needed. */
class WireBufferTest {

  @Test
  void writes_theSameBytesAsANettyBuffer_bigEndian() {
    WireBuffer w = new WireBuffer(1);
    w.writeByte(0xAB);
    w.writeShort(0xBEEF);
    w.writeInt(0x01020304);
    w.writeLong(0x1122334455667788L);
    w.writeBytes(new byte[] {9, 8, 7});
    ByteBuf n = Unpooled.buffer();
    try {
      n.writeByte(0xAB).writeShort(0xBEEF).writeInt(0x01020304).writeLong(0x1122334455667788L)
          .writeBytes(new byte[] {9, 8, 7});
      byte[] expected = new byte[n.readableBytes()];
      n.readBytes(expected);
      assertArrayEquals(expected, Arrays.copyOf(w.array(), w.length()));
    } finally {
      n.release();
    }
  }

  @Test
  void aHeadLeftFree_isFilledInAfterTheBody() {
    WireBuffer w = new WireBuffer(4);
    w.skipTo(12);
    w.writeInt(7);
    w.setInt(0, 0xCAFEBABE);
    w.setLong(4, -2L);
    ByteBuffer read = w.asByteBuffer();
    assertEquals(16, read.remaining());
    assertEquals(0xCAFEBABE, read.getInt());
    assertEquals(-2L, read.getLong());
    assertEquals(7, read.getInt());
  }

  @Test
  void growsPastItsFirstCapacity_andWritesOutWhatWasWritten() throws Exception {
    WireBuffer w = new WireBuffer(16);
    byte[] big = new byte[100_000];
    Arrays.fill(big, (byte) 5);
    w.writeBytes(big);
    w.writeByte(6);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    w.writeTo(out);
    assertEquals(100_001, out.size());
    assertEquals(6, out.toByteArray()[100_000]);
    w.clear();
    assertEquals(0, w.length());
  }
}
