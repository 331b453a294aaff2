package org.scache.client;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * Reads a buffer from its position to its limit, moving its position; for buffers with no array (direct
 * ones, and blocks read in place in the worker's shared memory).
 */
public final class ByteBufferInputStream extends InputStream {
  private final ByteBuffer buffer;

  private ByteBufferInputStream(ByteBuffer buffer) {
    this.buffer = buffer;
  }

  /** A stream of {@code data}'s bytes from its position to its limit, leaving {@code data} as it is; copies none. */
  public static InputStream of(ByteBuffer data) {
    return data.hasArray()
        ? new ByteArrayInputStream(data.array(), data.arrayOffset() + data.position(), data.remaining())
        : new ByteBufferInputStream(data.duplicate());
  }

  @Override
  public int read() {
    return buffer.hasRemaining() ? buffer.get() & 0xff : -1;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    java.util.Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (!buffer.hasRemaining()) {
      return -1;
    }
    int n = Math.min(len, buffer.remaining());
    buffer.get(b, off, n);
    return n;
  }

  @Override
  public long skip(long n) {
    int k = (int) Math.max(0, Math.min(n, buffer.remaining()));
    buffer.position(buffer.position() + k);
    return k;
  }

  @Override
  public int available() {
    return buffer.remaining();
  }
}
