package org.scache.common.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.scache.common.protocol.Frames;
import org.scache.common.protocol.MessageType;

/**
 * Builds frame bytes field by field, including ones the encoder would never write: wrong magic,
 * other versions, lengths that lie. Defaults describe a valid unsigned frame of the given type.
 */
public final class RawFrame {
  private int magic = Frames.MAGIC;
  private int version = Frames.VERSION;
  private int typeId;
  private int flags;
  private long requestId;
  private final ByteBuf meta = Unpooled.buffer();
  private byte[] payload = new byte[0];
  private Long metaLength;
  private Long payloadLength;

  private RawFrame(int typeId) {
    this.typeId = typeId;
  }

  public static RawFrame of(MessageType type) {
    return new RawFrame(type.id());
  }

  public static RawFrame ofTypeId(int typeId) {
    return new RawFrame(typeId);
  }

  public RawFrame magic(int v) {
    magic = v;
    return this;
  }

  public RawFrame version(int v) {
    version = v;
    return this;
  }

  public RawFrame flags(int v) {
    flags = v;
    return this;
  }

  public RawFrame requestId(long v) {
    requestId = v;
    return this;
  }

  /** Declares this metadata length instead of the real one. */
  public RawFrame declaredMetaLength(long v) {
    metaLength = v;
    return this;
  }

  /** Declares this payload length instead of the real one. */
  public RawFrame declaredPayloadLength(long v) {
    payloadLength = v;
    return this;
  }

  public RawFrame payload(byte[] v) {
    payload = v.clone();
    return this;
  }

  public RawFrame u8(int v) {
    meta.writeByte(v);
    return this;
  }

  public RawFrame u16(int v) {
    meta.writeShort(v);
    return this;
  }

  public RawFrame i32(int v) {
    meta.writeInt(v);
    return this;
  }

  public RawFrame i64(long v) {
    meta.writeLong(v);
    return this;
  }

  public RawFrame raw(byte[] v) {
    meta.writeBytes(v);
    return this;
  }

  /** A u16-length UTF-8 string, as the codec writes strings. */
  public RawFrame string(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return u16(b.length).raw(b);
  }

  /** A block id, as the codec writes it. */
  public RawFrame blockId(String app, int shuffle, int map, int attempt, int reduce) {
    return string(app).i32(shuffle).i32(map).i32(attempt).i32(reduce);
  }

  public byte[] bytes() {
    ByteBuf b = Unpooled.buffer();
    b.writeInt(magic).writeByte(version).writeByte(typeId).writeShort(flags).writeLong(requestId)
        .writeInt((int) (metaLength != null ? metaLength : meta.readableBytes()))
        .writeLong(payloadLength != null ? payloadLength : payload.length)
        .writeBytes(meta, meta.readerIndex(), meta.readableBytes())
        .writeBytes(payload);
    return ByteBufUtil.getBytes(b);
  }
}
