package org.scache.common.protocol;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A growable big-endian byte array that frame heads and message metadata are written into. It is
 * plain Java: a blocking connection in a short-lived task JVM encodes and sends its frames without
 * loading and initialising Netty's buffers; the event-loop encoder copies the result into its own.
 */
public final class WireBuffer {
  private byte[] bytes;
  private int length;

  public WireBuffer(int initialCapacity) {
    bytes = new byte[Math.max(16, initialCapacity)];
  }

  /** Bytes written. */
  public int length() {
    return length;
  }

  /** The backing array: its first {@link #length()} bytes are the ones written. */
  public byte[] array() {
    return bytes;
  }

  /** Forgets what was written, keeping the array. */
  public void clear() {
    length = 0;
  }

  /** The bytes written, as a buffer over the backing array (position 0, limit {@link #length()}). */
  public ByteBuffer asByteBuffer() {
    return ByteBuffer.wrap(bytes, 0, length);
  }

  public void writeTo(OutputStream out) throws IOException {
    out.write(bytes, 0, length);
  }

  /** Moves the end to {@code at}, keeping the bytes before it: room for a head filled in later. */
  void skipTo(int at) {
    ensure(at - length);
    length = at;
  }

  void writeByte(int v) {
    ensure(1);
    bytes[length++] = (byte) v;
  }

  void writeShort(int v) {
    ensure(2);
    setShort(length, v);
    length += 2;
  }

  void writeInt(int v) {
    ensure(4);
    setInt(length, v);
    length += 4;
  }

  void writeLong(long v) {
    ensure(8);
    setLong(length, v);
    length += 8;
  }

  void writeBytes(byte[] b) {
    writeBytes(b, 0, b.length);
  }

  void writeBytes(byte[] b, int offset, int count) {
    ensure(count);
    System.arraycopy(b, offset, bytes, length, count);
    length += count;
  }

  void setByte(int at, int v) {
    bytes[at] = (byte) v;
  }

  void setShort(int at, int v) {
    bytes[at] = (byte) (v >>> 8);
    bytes[at + 1] = (byte) v;
  }

  void setInt(int at, int v) {
    bytes[at] = (byte) (v >>> 24);
    bytes[at + 1] = (byte) (v >>> 16);
    bytes[at + 2] = (byte) (v >>> 8);
    bytes[at + 3] = (byte) v;
  }

  void setLong(int at, long v) {
    setInt(at, (int) (v >>> 32));
    setInt(at + 4, (int) v);
  }

  private void ensure(int more) {
    if (more > bytes.length - length) {
      long need = (long) length + more;
      if (need > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException("a wire buffer of " + need + " bytes");
      }
      bytes = Arrays.copyOf(bytes, (int) Math.max(need, Math.min(Integer.MAX_VALUE - 8, 2L * bytes.length)));
    }
  }
}
