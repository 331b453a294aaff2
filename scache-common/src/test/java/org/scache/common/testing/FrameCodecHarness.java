package org.scache.common.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.scache.common.protocol.ChannelBinding;
import org.scache.common.protocol.FrameDecoder;
import org.scache.common.protocol.FrameEncoder;
import org.scache.common.protocol.OutboundFrame;

/**
 * Runs frames through {@link FrameEncoder} and {@link FrameDecoder} on {@link EmbeddedChannel}s,
 * so codec tests deal in bytes and decoded objects. Inbound bytes are fed as pooled buffers, so a
 * decoded payload chunk that is never released shows up as a leak.
 */
public final class FrameCodecHarness {
  public static final int MAX_META = 64 * 1024;
  public static final long MAX_PAYLOAD = 16L << 20;
  /** The nonce of the connection the harness's frames are signed for and decoded on. */
  public static final byte[] NONCE = "harness-nonce-16".getBytes(java.nio.charset.StandardCharsets.UTF_8);
  /** Signed frames take increasing sequence numbers across every encoding, as on one connection. */
  private static final ChannelBinding SENDING = ChannelBinding.withNonce(NONCE);

  private FrameCodecHarness() {}

  /** The bytes {@link FrameEncoder} writes for {@code frame}; the frame's payload is released. */
  public static byte[] encode(OutboundFrame frame) {
    EmbeddedChannel ch = new EmbeddedChannel(new FrameEncoder(MAX_META, SENDING));
    ch.writeOutbound(frame);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
      out.writeBytes(ByteBufUtil.getBytes(b));
      b.release();
    }
    assertFalse(ch.finish(), "encoder left messages behind");
    return out.toByteArray();
  }

  /** A decoder on the accepting side of the harness's connection, which has taken no signed frame yet. */
  public static EmbeddedChannel decoderChannel() {
    return decoderChannel(MAX_META, MAX_PAYLOAD);
  }

  public static EmbeddedChannel decoderChannel(int maxMeta, long maxPayload) {
    return new EmbeddedChannel(new FrameDecoder(maxMeta, maxPayload, ChannelBinding.withNonce(NONCE)));
  }

  /** Writes all of {@code bytes} in one buffer. */
  public static void feedAllAtOnce(EmbeddedChannel ch, byte[] bytes) {
    ch.writeInbound(ch.alloc().buffer(bytes.length).writeBytes(bytes));
  }

  /** Writes {@code bytes} one buffer per byte. */
  public static void feedOneByteAtATime(EmbeddedChannel ch, byte[] bytes) {
    for (byte b : bytes) {
      ch.writeInbound(ch.alloc().buffer(1).writeByte(b));
    }
  }

  /** Writes {@code bytes} in pieces of random length (1 to {@code maxPiece}). */
  public static void feedInRandomPieces(EmbeddedChannel ch, byte[] bytes, Random random, int maxPiece) {
    int i = 0;
    while (i < bytes.length) {
      int n = Math.min(bytes.length - i, 1 + random.nextInt(maxPiece));
      ch.writeInbound(ch.alloc().buffer(n).writeBytes(bytes, i, n));
      i += n;
    }
  }

  /** Everything the decoder has emitted so far, in order. The caller releases it. */
  public static List<Object> readAll(EmbeddedChannel ch) {
    List<Object> out = new ArrayList<>();
    for (Object o; (o = ch.readInbound()) != null; ) {
      out.add(o);
    }
    return out;
  }

  public static void releaseAll(List<Object> decoded) {
    decoded.forEach(ReferenceCountUtil::release);
  }

  /** Concatenates byte arrays. */
  public static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
