package org.scache.common.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
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
    return decode(inflate(stored), RegisterShuffle.class).shuffle();
  }

  /**
   * Reads a registration from {@code stored} as it streams, refusing one whose form inflates past
   * {@code maxInflatedBytes} before it holds more than that.
   */
  public static ShuffleSpec spec(InputStream stored, int maxInflatedBytes) throws IOException,
      MalformedMessageException {
    return decode(inflate(stored, maxInflatedBytes), RegisterShuffle.class).shuffle();
  }

  public static byte[] placement(ShufflePlacement placement) {
    return encode(new ScheduleResult(placement));
  }

  public static ShufflePlacement placement(byte[] stored) throws MalformedMessageException {
    return decode(inflate(stored), ScheduleResult.class).placement();
  }

  /**
   * Reads a placement from {@code stored} as it streams, refusing one whose form inflates past
   * {@code maxInflatedBytes} before it holds more than that.
   */
  public static ShufflePlacement placement(InputStream stored, int maxInflatedBytes) throws IOException,
      MalformedMessageException {
    return decode(inflate(stored, maxInflatedBytes), ScheduleResult.class).placement();
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

  private static <T extends Message> T decode(byte[] inflated, Class<T> kind) throws MalformedMessageException {
    ByteBuf buf = Unpooled.wrappedBuffer(inflated);
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
    try {
      return inflate(new ByteArrayInputStream(stored), MAX_INFLATED);
    } catch (IOException e) {
      throw new MalformedMessageException("a stored form cannot be read: " + e.getMessage());
    }
  }

  private static byte[] inflate(InputStream stored, int max) throws IOException, MalformedMessageException {
    Inflater i = new Inflater();
    try {
      byte[] input = new byte[8192];
      byte[] chunk = new byte[8192];
      ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
      while (!i.finished()) {
        if (i.needsDictionary()) {
          throw new MalformedMessageException("a stored form asks for a dictionary");
        }
        if (i.needsInput()) {
          int n = stored.read(input);
          if (n < 0) {
            throw new MalformedMessageException("a stored form cut short");
          }
          i.setInput(input, 0, n);
        }
        int n = i.inflate(chunk);
        if (out.size() + n > max) {
          throw new MalformedMessageException("a stored form inflates past " + max + " bytes");
        }
        out.write(chunk, 0, n);
      }
      return out.toByteArray();
    } catch (DataFormatException e) {
      throw new MalformedMessageException("a stored form is not deflated: " + e.getMessage());
    } finally {
      i.end();
    }
  }
}
