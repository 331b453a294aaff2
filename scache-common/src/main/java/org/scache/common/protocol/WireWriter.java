package org.scache.common.protocol;

import java.nio.charset.StandardCharsets;

/** Writes the primitive wire types: big-endian integers, u16-length UTF-8 strings, u32-length bytes. */
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
}
