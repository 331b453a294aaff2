package org.scache.common.protocol;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the primitive wire types from a frame's metadata, checking every length against what is
 * left so that bad input becomes a {@link MalformedMessageException}, never an index error.
 */
final class WireReader {
  private final ByteBuffer in;

  WireReader(ByteBuffer in) {
    this.in = in;
  }

  private void need(int bytes, String what) throws MalformedMessageException {
    if (in.remaining() < bytes) {
      throw new MalformedMessageException("truncated " + what + ": need " + bytes + " bytes, have " + in.remaining());
    }
  }

  int readInt(String what) throws MalformedMessageException {
    need(4, what);
    return in.getInt();
  }

  int readNonNegativeInt(String what) throws MalformedMessageException {
    int v = readInt(what);
    if (v < 0) {
      throw new MalformedMessageException(what + " must not be negative: " + v);
    }
    return v;
  }

  long readLong(String what) throws MalformedMessageException {
    need(8, what);
    return in.getLong();
  }

  long readNonNegativeLong(String what) throws MalformedMessageException {
    long v = readLong(what);
    if (v < 0) {
      throw new MalformedMessageException(what + " must not be negative: " + v);
    }
    return v;
  }

  int readUnsignedShort(String what) throws MalformedMessageException {
    need(2, what);
    return Short.toUnsignedInt(in.getShort());
  }

  int readUnsignedByte(String what) throws MalformedMessageException {
    need(1, what);
    return Byte.toUnsignedInt(in.get());
  }

  String readString(String what) throws MalformedMessageException {
    int len = readUnsignedShort(what + " length");
    need(len, what);
    byte[] bytes = new byte[len];
    in.get(bytes);
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(java.nio.ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new MalformedMessageException(what + " is not valid UTF-8");
    }
  }

  String readNonEmptyString(String what) throws MalformedMessageException {
    String s = readString(what);
    if (s.isEmpty()) {
      throw new MalformedMessageException(what + " must not be empty");
    }
    return s;
  }

  byte[] readBytes(String what) throws MalformedMessageException {
    int len = readNonNegativeInt(what + " length");
    need(len, what);
    byte[] bytes = new byte[len];
    in.get(bytes);
    return bytes;
  }

  /** A list count, bounded by the bytes left given each element's minimum encoded size. */
  int readCount(String what, int minElementBytes) throws MalformedMessageException {
    int n = readNonNegativeInt(what + " count");
    if ((long) n * minElementBytes > in.remaining()) {
      throw new MalformedMessageException(what + " count " + n + " exceeds the bytes left");
    }
    return n;
  }

  /** Reads one element of a list; may throw on malformed input. */
  @FunctionalInterface
  interface ElementReader<T> {
    T read(WireReader in) throws MalformedMessageException;
  }

  /** A list written as an i32 count and its elements, each at least {@code minElementBytes} long. */
  <T> List<T> readList(String what, int minElementBytes, ElementReader<T> element) throws MalformedMessageException {
    int n = readCount(what, minElementBytes);
    List<T> list = listOf(n);
    for (int i = 0; i < n; i++) {
      list.add(element.read(this));
    }
    return list;
  }

  /** A list of strings, any of which may be empty. */
  List<String> readStrings(String what) throws MalformedMessageException {
    return readList(what, 2, in -> in.readString(what));
  }

  /** Whether bytes are left: a field added at the end of a message may be absent from older forms. */
  boolean hasMore() {
    return in.hasRemaining();
  }

  /** A flag: one byte, 0 or 1. */
  boolean readFlag(String what) throws MalformedMessageException {
    int b = readUnsignedByte(what);
    if (b > 1) {
      throw new MalformedMessageException(what + " must be 0 or 1, not " + b);
    }
    return b == 1;
  }

  void expectEnd(String what) throws MalformedMessageException {
    if (in.hasRemaining()) {
      throw new MalformedMessageException(in.remaining() + " unexpected trailing bytes after " + what);
    }
  }

  /** What reads a value from a buffer's remaining bytes. */
  interface Read<T> {
    T from(ByteBuffer in) throws MalformedMessageException;
  }

  /**
   * Reads a value from {@code in}'s readable bytes, seen as a big-endian {@link ByteBuffer}, and
   * moves {@code in}'s reader index past what was read: the Netty side's way into the readers here.
   */
  static <T> T fromReadable(ByteBuf in, Read<T> read) throws MalformedMessageException {
    ByteBuffer view = in.nioBuffer(in.readerIndex(), in.readableBytes()).order(ByteOrder.BIG_ENDIAN);
    int start = view.position();
    try {
      return read.from(view);
    } finally {
      in.skipBytes(view.position() - start);
    }
  }

  static <T> List<T> listOf(int n) {
    return new ArrayList<>(Math.min(n, 4096));
  }
}
