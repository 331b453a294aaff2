package org.scache.common.protocol;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Writes the primitive wire types: big-endian integers, u16-length UTF-8 strings, u32-length bytes, and
 * lists (an i32 count, then the elements).
 */
final class WireWriter {
  private final WireBuffer out;

  WireWriter(WireBuffer out) {
    this.out = out;
  }

  WireWriter writeInt(int v) {
    out.writeInt(v);
    return this;
  }

  WireWriter writeLong(long v) {
    out.writeLong(v);
    return this;
  }

  WireWriter writeShort(int v) {
    out.writeShort(v);
    return this;
  }

  WireWriter writeByte(int v) {
    out.writeByte(v);
    return this;
  }

  /** A flag: one byte, 1 or 0. */
  WireWriter writeFlag(boolean v) {
    return writeByte(v ? 1 : 0);
  }

  WireWriter writeString(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    if (utf8.length > 0xFFFF) {
      throw new IllegalArgumentException("string longer than 65535 UTF-8 bytes: " + utf8.length);
    }
    out.writeShort(utf8.length);
    out.writeBytes(utf8);
    return this;
  }

  WireWriter writeBytes(byte[] bytes) {
    out.writeInt(bytes.length);
    out.writeBytes(bytes);
    return this;
  }

  /** Bytes another writer wrote, as they are: no length before them. */
  WireWriter writeWritten(byte[] written) {
    out.writeBytes(written);
    return this;
  }

  /** A list: an i32 count, then each element as {@code element} writes it. */
  <T> WireWriter writeList(List<T> list, BiConsumer<WireWriter, T> element) {
    writeInt(list.size());
    for (T e : list) {
      element.accept(this, e);
    }
    return this;
  }

  WireWriter writeStrings(List<String> list) {
    return writeList(list, WireWriter::writeString);
  }
}
