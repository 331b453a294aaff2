package org.scache.common.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;

/**
 * The bytes a master keeps of a shuffle's registration and placement outside its memory (in
 * ZooKeeper), so that another master can read them back: the same encoding as on the wire, after a
 * byte naming the protocol version and the message type, deflated (a placement names its workers once
 * per reduce, which compresses well).
 */
public final class StoredForms {
  private static final int MAX_INFLATED = 64 << 20;

  private StoredForms() {}

  public static byte[] spec(ShuffleSpec spec) {
    return encode(new RegisterShuffle(spec));
  }

  public static ShuffleSpec spec(byte[] stored) throws MalformedMessageException {
    return decode(stored, RegisterShuffle.class).shuffle();
  }

  public static byte[] placement(ShufflePlacement placement) {
    return encode(new ScheduleResult(placement));
  }

  public static ShufflePlacement placement(byte[] stored) throws MalformedMessageException {
    return decode(stored, ScheduleResult.class).placement();
  }

  private static byte[] encode(Message m) {
    ByteBuf buf = Unpooled.buffer();
    try {
      buf.writeByte(Frames.VERSION).writeShort(m.type().id());
      MessageCodec.encode(m, buf);
      return deflate(ByteBufUtil.getBytes(buf));
    } finally {
      buf.release();
    }
  }

  private static <T extends Message> T decode(byte[] stored, Class<T> kind) throws MalformedMessageException {
    ByteBuf buf = Unpooled.wrappedBuffer(inflate(stored));
    if (buf.readableBytes() < 3) {
      throw new MalformedMessageException("a stored form of " + buf.readableBytes() + " bytes");
    }
    int version = buf.readUnsignedByte();
    if (version != Frames.VERSION) {
      throw new MalformedMessageException("stored by protocol version " + version + "; this is " + Frames.VERSION);
    }
    int typeId = buf.readUnsignedShort();
    MessageType type = MessageType.fromId(typeId)
        .orElseThrow(() -> new MalformedMessageException("unknown stored message type " + typeId));
    Message m = MessageCodec.decode(type, buf);
    if (!kind.isInstance(m)) {
      throw new MalformedMessageException("stored " + type + " where a " + kind.getSimpleName() + " was expected");
    }
    return kind.cast(m);
  }

  private static byte[] deflate(byte[] raw) {
    Deflater d = new Deflater(Deflater.BEST_SPEED);
    try {
      d.setInput(raw);
      d.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length / 2 + 64);
      byte[] chunk = new byte[8192];
      while (!d.finished()) {
        out.write(chunk, 0, d.deflate(chunk));
      }
      return out.toByteArray();
    } finally {
      d.end();
    }
  }

  private static byte[] inflate(byte[] stored) throws MalformedMessageException {
    Inflater i = new Inflater();
    try {
      i.setInput(stored);
      ByteArrayOutputStream out = new ByteArrayOutputStream(stored.length * 4 + 64);
      byte[] chunk = new byte[8192];
      while (!i.finished()) {
        int n = i.inflate(chunk);
        if (n == 0 && (i.needsInput() || i.needsDictionary())) {
          throw new MalformedMessageException("a stored form cut short");
        }
        out.write(chunk, 0, n);
        if (out.size() > MAX_INFLATED) {
          throw new MalformedMessageException("a stored form inflates past " + MAX_INFLATED + " bytes");
        }
      }
      return out.toByteArray();
    } catch (DataFormatException e) {
      throw new MalformedMessageException("a stored form is not deflated: " + e.getMessage());
    } finally {
      i.end();
    }
  }
}
