package org.scache.common.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.scache.common.testing.FrameCodecHarness.encode;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scache.common.auth.Credentials;
import org.scache.common.testing.FrameCodecHarness;
import org.scache.common.testing.NettyLeakExtension;
import org.scache.common.testing.SampleMessages;

/** Mutated frames never make the decoder throw; it only ever yields frames, chunks and failures. */
@ExtendWith(NettyLeakExtension.class)
class FrameDecoderFuzzTest {
  private static final long SEED = 0x5CAC4EL;
  private static final int ITERATIONS = 4000;
  private static final int MAX_META = 4096;
  private static final long MAX_PAYLOAD = 1 << 20;

  private static List<byte[]> validFrames() {
    List<byte[]> frames = new ArrayList<>();
    for (MessageType t : MessageType.values()) {
      Optional<Credentials> none = Optional.empty();
      frames.add(encode(new OutboundFrame(t.id(), SampleMessages.of(t), none,
          Unpooled.wrappedBuffer(SampleMessages.payload(t)))));
      if (!t.isResponse()) {
        frames.add(encode(new OutboundFrame(t.id(), SampleMessages.of(t), Optional.of(SampleMessages.appCredentials()),
            Unpooled.wrappedBuffer(SampleMessages.payload(t)))));
      }
    }
    return frames;
  }

  @Test
  void decoder_mutatedFrames_neverThrowsAndYieldsOnlyDecoderResults() {
    Random random = new Random(SEED);
    List<byte[]> frames = validFrames();
    int[] seen = new int[3];
    for (int i = 0; i < ITERATIONS; i++) {
      byte[] bytes = mutate(frames.get(random.nextInt(frames.size())), random);
      byte[] followedByValid = random.nextBoolean() ? bytes
          : FrameCodecHarness.concat(bytes, frames.get(random.nextInt(frames.size())));
      try {
        check(followedByValid, random, seen);
      } catch (RuntimeException | AssertionError e) {
        fail("iteration " + i + " (seed " + SEED + ")", e);
      }
    }
    assertTrue(seen[0] > 0 && seen[2] > 0, "the fuzz reaches both frames and failures");
  }

  @Test
  void decoder_randomBytesAfterValidMagic_neverThrows() {
    Random random = new Random(SEED + 1);
    int[] seen = new int[3];
    for (int i = 0; i < ITERATIONS / 4; i++) {
      byte[] bytes = new byte[random.nextInt(200)];
      random.nextBytes(bytes);
      if (bytes.length >= 6) {
        Unpooled.wrappedBuffer(bytes).setIndex(0, 0).writeInt(Frames.MAGIC).writeByte(Frames.VERSION);
      }
      try {
        check(bytes, random, seen);
      } catch (RuntimeException | AssertionError e) {
        fail("iteration " + i + " (seed " + (SEED + 1) + ")", e);
      }
    }
  }

  private static byte[] mutate(byte[] frame, Random random) {
    byte[] b = frame.clone();
    int mutations = 1 + random.nextInt(4);
    for (int m = 0; m < mutations; m++) {
      // most mutations hit the header and metadata, where the structure is
      int limit = random.nextInt(4) == 0 ? b.length : Math.min(b.length, Frames.HEADER_LENGTH + 64);
      int pos = random.nextInt(limit);
      switch (random.nextInt(4)) {
        case 0 -> b[pos] = (byte) random.nextInt(256);
        case 1 -> b[pos] ^= (byte) (1 << random.nextInt(8));
        case 2 -> b[pos] = (byte) (random.nextBoolean() ? 0 : 0xFF);
        default -> b[pos]++;
      }
    }
    if (random.nextInt(8) == 0) {
      b = java.util.Arrays.copyOf(b, random.nextInt(b.length + 1));
    }
    return b;
  }

  /** Feeds {@code bytes} in random pieces, closes, and checks every decoded object; counts them by kind. */
  private static void check(byte[] bytes, Random random, int[] seen) {
    EmbeddedChannel ch = FrameCodecHarness.decoderChannel(MAX_META, MAX_PAYLOAD);
    FrameCodecHarness.feedInRandomPieces(ch, bytes, random, 1 + random.nextInt(64));
    ch.finish();
    List<Object> out = FrameCodecHarness.readAll(ch);
    try {
      long payloadLeft = 0;
      boolean dead = false;
      for (Object o : out) {
        assertTrue(!dead, "output after a fatal failure");
        if (o instanceof InboundFrame f) {
          assertEquals(0, payloadLeft, "frame before the previous payload ended");
          payloadLeft = f.payloadLength();
          seen[0]++;
        } else if (o instanceof PayloadChunk c) {
          payloadLeft -= c.content().readableBytes();
          assertTrue(payloadLeft >= 0, "more payload than declared");
          assertEquals(payloadLeft == 0, c.last());
          seen[1]++;
        } else if (o instanceof DecodeFailure d) {
          dead = d.fatal();
          payloadLeft = 0;
          seen[2]++;
        } else {
          fail("unexpected " + o.getClass());
        }
      }
    } finally {
      out.forEach(ReferenceCountUtil::release);
    }
  }
}
