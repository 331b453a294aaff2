package org.scache.common.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.scache.common.testing.FrameCodecHarness.readAll;
import static org.scache.common.testing.FrameCodecHarness.releaseAll;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.EncoderException;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scache.common.auth.PayloadDigest;
import org.scache.common.testing.FrameCodecHarness;
import org.scache.common.testing.NettyLeakExtension;
import org.scache.common.testing.SampleMessages;

/** A signed frame is good on its own connection once: replays and frames from other connections fail. */
@ExtendWith(NettyLeakExtension.class)
class ChannelBindingTest {
  private static final byte[] PAYLOAD = "block bytes".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  private static byte[] encode(ChannelBinding binding, long requestId, byte[] payload) {
    EmbeddedChannel ch = new EmbeddedChannel(new FrameEncoder(FrameCodecHarness.MAX_META, binding));
    ch.writeOutbound(new OutboundFrame(requestId, new PutBlock(SampleMessages.BLOCK_1),
        Optional.of(SampleMessages.appCredentials()), Unpooled.wrappedBuffer(payload)));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
      out.writeBytes(ByteBufUtil.getBytes(b));
      b.release();
    }
    ch.finish();
    return out.toByteArray();
  }

  private static List<Object> decode(ChannelBinding receiving, byte[]... frames) {
    EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(FrameCodecHarness.MAX_META,
        FrameCodecHarness.MAX_PAYLOAD, receiving));
    for (byte[] f : frames) {
      ch.writeInbound(Unpooled.wrappedBuffer(f));
    }
    List<Object> out = readAll(ch);
    ch.finish();
    return out;
  }

  @Test
  void frameReplayedOnItsConnection_afterItWasAdmitted_isRefusedAsAReplay_andItsPayloadSkipped() {
    byte[] nonce = FrameCodecHarness.NONCE;
    byte[] frame = encode(ChannelBinding.withNonce(nonce), 5, PAYLOAD);
    ChannelBinding receiving = ChannelBinding.withNonce(nonce);
    EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(FrameCodecHarness.MAX_META,
        FrameCodecHarness.MAX_PAYLOAD, receiving));
    ch.writeInbound(Unpooled.wrappedBuffer(frame));
    List<Object> first = readAll(ch);
    InboundFrame taken = assertInstanceOf(InboundFrame.class, first.get(0));
    assertTrue(taken.verify(SampleMessages.APP, SampleMessages.APP_SECRET));
    // as the authorization stage does once the proof has verified
    assertTrue(receiving.admit(taken.auth().orElseThrow().sequence()));
    ch.writeInbound(Unpooled.wrappedBuffer(frame));
    List<Object> again = readAll(ch);
    ch.finish();
    try {
      assertEquals(1, again.size(), "only the refusal, the payload skipped: " + again);
      DecodeFailure replay = assertInstanceOf(DecodeFailure.class, again.get(0));
      assertEquals(Status.AUTH_FAILED, replay.status());
      assertEquals(5, replay.requestId());
      assertFalse(replay.fatal(), "the connection goes on");
    } finally {
      releaseAll(first);
      releaseAll(again);
    }
  }

  @Test
  void theDecoder_doesNotMoveTheSequenceFloor_aFrameIsAdmittedOnlyOnceItsProofVerified() {
    ChannelBinding receiving = ChannelBinding.withNonce(FrameCodecHarness.NONCE);
    ChannelBinding forger = ChannelBinding.withNonce(FrameCodecHarness.NONCE);
    for (int i = 0; i < 99; i++) {
      forger.nextSequence();
    }
    byte[] forged = encode(forger, 1, PAYLOAD);
    byte[] genuine = encode(ChannelBinding.withNonce(FrameCodecHarness.NONCE), 2, PAYLOAD);
    List<Object> out = decode(receiving, forged, genuine);
    try {
      assertEquals(4, out.size(), "both frames and their payloads pass the decoder: " + out);
      assertEquals(100, ((InboundFrame) out.get(0)).auth().orElseThrow().sequence());
      assertTrue(receiving.admit(1), "the floor did not move for a frame whose proof nobody checked");
    } finally {
      releaseAll(out);
    }
  }

  @Test
  void frameSignedForOneConnection_failsItsProofOnAnother() {
    ChannelBinding first = ChannelBinding.accepted();
    ChannelBinding second = ChannelBinding.accepted();
    ChannelBinding sender = ChannelBinding.connecting(true);
    sender.learn(first.nonce());
    byte[] frame = encode(sender, 6, PAYLOAD);
    List<Object> onFirst = decode(first, frame);
    List<Object> onSecond = decode(second, frame);
    try {
      assertTrue(((InboundFrame) onFirst.get(0)).verify(SampleMessages.APP, SampleMessages.APP_SECRET));
      assertFalse(((InboundFrame) onSecond.get(0)).verify(SampleMessages.APP, SampleMessages.APP_SECRET));
    } finally {
      releaseAll(onFirst);
      releaseAll(onSecond);
    }
  }

  @Test
  void signedPayload_carriesTheDigestOfItsBytes_andAnotherPayloadDoesNotMatchIt() {
    byte[] frame = encode(ChannelBinding.withNonce(FrameCodecHarness.NONCE), 7, PAYLOAD);
    List<Object> out = decode(ChannelBinding.withNonce(FrameCodecHarness.NONCE), frame);
    try {
      InboundFrame f = (InboundFrame) out.get(0);
      assertArrayEquals(PayloadDigest.of(Unpooled.wrappedBuffer(PAYLOAD)), f.signedPayloadDigest());
      PayloadDigest other = new PayloadDigest();
      other.update(Unpooled.wrappedBuffer("block bytez".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      assertFalse(other.matches(f.signedPayloadDigest()));
    } finally {
      releaseAll(out);
    }
  }

  @Test
  void sequencesOnAConnection_mustRise_butMayHaveGaps() {
    ChannelBinding b = ChannelBinding.withNonce(FrameCodecHarness.NONCE);
    assertTrue(b.admit(1));
    assertTrue(b.admit(7));
    assertFalse(b.admit(7));
    assertFalse(b.admit(3));
    assertTrue(b.admit(8));
  }

  @Test
  void signing_beforeThePeersGreeting_isRefused() {
    EncoderException e = assertThrows(EncoderException.class,
        () -> encode(ChannelBinding.connecting(true), 8, PAYLOAD));
    assertTrue(e.getMessage().contains("nonce"), e.getMessage());
  }

  @Test
  void aSecondDifferentGreeting_isRefused() {
    ChannelBinding b = ChannelBinding.connecting(true);
    b.learn(ChannelBinding.accepted().nonce());
    assertThrows(IllegalStateException.class, () -> b.learn(ChannelBinding.accepted().nonce()));
    assertThrows(IllegalArgumentException.class, () -> ChannelBinding.connecting(true).learn(new byte[3]));
  }
}
