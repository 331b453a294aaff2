package org.scache.common.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.scache.common.testing.FrameCodecHarness.concat;
import static org.scache.common.testing.FrameCodecHarness.decoderChannel;
import static org.scache.common.testing.FrameCodecHarness.encode;
import static org.scache.common.testing.FrameCodecHarness.readAll;
import static org.scache.common.testing.FrameCodecHarness.releaseAll;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.scache.common.testing.FrameCodecHarness;
import org.scache.common.testing.NettyLeakExtension;
import org.scache.common.testing.RawFrame;
import org.scache.common.testing.SampleMessages;

/** Bad input becomes a {@link DecodeFailure}: fatal when the stream is lost, otherwise the next frame decodes. */
@ExtendWith(NettyLeakExtension.class)
class FrameDecoderBadInputTest {
  private static final int MAX_META = 1024;
  private static final long MAX_PAYLOAD = 4096;
  private static final long NEXT_ID = 77;
  private static final byte[] NEXT_PAYLOAD = SampleMessages.bytes(500, 77);
  private static final Message NEXT_MESSAGE = new BlockData(SampleMessages.BLOCK_1);

  /** How the bytes reach the decoder. */
  enum Feeding {
    ALL_AT_ONCE(FrameCodecHarness::feedAllAtOnce),
    ONE_BYTE_AT_A_TIME(FrameCodecHarness::feedOneByteAtATime);

    final BiConsumer<EmbeddedChannel, byte[]> feed;

    Feeding(BiConsumer<EmbeddedChannel, byte[]> feed) {
      this.feed = feed;
    }
  }

  /** A valid frame with a payload, sent after the bad one. */
  private static byte[] nextFrame() {
    return encode(new OutboundFrame(NEXT_ID, NEXT_MESSAGE, Optional.empty(), Unpooled.wrappedBuffer(NEXT_PAYLOAD)));
  }

  private static EmbeddedChannel channel() {
    return decoderChannel(MAX_META, MAX_PAYLOAD);
  }

  private static DecodeFailure assertFailure(Object o, Status status, boolean fatal) {
    DecodeFailure f = assertInstanceOf(DecodeFailure.class, o);
    assertEquals(status, f.status(), f.message());
    assertEquals(fatal, f.fatal(), "fatal: " + f.message());
    assertFalse(f.message().isEmpty());
    return f;
  }

  /** Feeds {@code bad} then a valid frame; expects one non-fatal failure, then the valid frame intact. */
  private static DecodeFailure assertSkippedThenNextDecodes(byte[] bad, Status status, Feeding feeding) {
    EmbeddedChannel ch = channel();
    feeding.feed.accept(ch, concat(bad, nextFrame()));
    List<Object> out = readAll(ch);
    try {
      DecodeFailure f = assertFailure(out.get(0), status, false);
      FrameCodecTest.assertFrame(out.subList(1, out.size()), NEXT_ID, NEXT_MESSAGE, NEXT_PAYLOAD);
      assertFalse(ch.finish());
      return f;
    } finally {
      releaseAll(out);
    }
  }

  /** Feeds {@code bad} then valid frames; expects one fatal failure and nothing after it. */
  private static void assertFatalAndRestDiscarded(byte[] bad, Status status) {
    EmbeddedChannel ch = channel();
    FrameCodecHarness.feedAllAtOnce(ch, concat(bad, nextFrame()));
    FrameCodecHarness.feedAllAtOnce(ch, nextFrame());
    List<Object> out = readAll(ch);
    try {
      assertEquals(1, out.size(), () -> "expected only the failure: " + out);
      assertFailure(out.get(0), status, true);
    } finally {
      releaseAll(out);
    }
    assertFalse(ch.finish(), "nothing more after a fatal failure, not even at close");
  }

  @Test
  void badMagic_failsFatallyWithBadFrameAndDiscardsFurtherInput() {
    assertFatalAndRestDiscarded(RawFrame.of(MessageType.ACK).magic(0x47455420).bytes(), Status.BAD_FRAME);
  }

  @ParameterizedTest
  @EnumSource(Feeding.class)
  void wrongVersion_failsNonFatallyAndNextFrameDecodes(Feeding feeding) {
    byte[] bad = RawFrame.of(MessageType.BLOCK_DATA).version(Frames.VERSION + 1).requestId(5).raw(new byte[10])
        .payload(new byte[5]).bytes();
    assertEquals(5, assertSkippedThenNextDecodes(bad, Status.UNSUPPORTED_VERSION, feeding).requestId());
  }

  @ParameterizedTest
  @EnumSource(Feeding.class)
  void unknownTypeId_failsNonFatallyAndNextFrameDecodes(Feeding feeding) {
    byte[] bad = RawFrame.ofTypeId(99).requestId(6).raw(new byte[20]).payload(new byte[7]).bytes();
    assertEquals(6, assertSkippedThenNextDecodes(bad, Status.UNKNOWN_MESSAGE_TYPE, feeding).requestId());
  }

  @Test
  void metaLengthAboveLimit_failsFatallyWithFrameTooLarge() {
    assertFatalAndRestDiscarded(RawFrame.of(MessageType.ACK).declaredMetaLength(MAX_META + 1).bytes(),
        Status.FRAME_TOO_LARGE);
  }

  @Test
  void metaLengthAboveSignedIntRange_failsFatallyWithFrameTooLarge() {
    assertFatalAndRestDiscarded(RawFrame.of(MessageType.ACK).declaredMetaLength(0xFFFF_FFF0L).bytes(),
        Status.FRAME_TOO_LARGE);
  }

  @ParameterizedTest
  @ValueSource(longs = {MAX_PAYLOAD + 1, Long.MAX_VALUE, -1, Long.MIN_VALUE})
  void payloadLengthAboveLimitOrNegative_failsFatallyWithFrameTooLarge(long declared) {
    assertFatalAndRestDiscarded(RawFrame.of(MessageType.BLOCK_DATA).blockId("app", 0, 0, 0, 0)
        .declaredPayloadLength(declared).bytes(), Status.FRAME_TOO_LARGE);
  }

  @Test
  void lengthsExactlyAtLimits_decode() {
    String app = "a".repeat(MAX_META - 2 - 16);
    Message m = new PutBlock(new org.scache.common.BlockId(app, 0, 0, 0, 0));
    byte[] payload = new byte[(int) MAX_PAYLOAD];
    byte[] wire = encode(new OutboundFrame(1, m, Optional.empty(), Unpooled.wrappedBuffer(payload)));
    assertEquals(Frames.HEADER_LENGTH + MAX_META + MAX_PAYLOAD, wire.length);
    EmbeddedChannel ch = channel();
    FrameCodecHarness.feedAllAtOnce(ch, wire);
    List<Object> out = readAll(ch);
    try {
      FrameCodecTest.assertFrame(out, 1, m, payload);
    } finally {
      releaseAll(out);
    }
    assertFalse(ch.finish());
  }

  @ParameterizedTest
  @EnumSource(Feeding.class)
  void payloadOnTypeWithoutPayload_failsNonFatallyAndNextFrameDecodes(Feeding feeding) {
    byte[] bad = RawFrame.of(MessageType.GET_BLOCK).requestId(8).blockId("app", 0, 0, 0, 0)
        .payload(new byte[10]).bytes();
    assertEquals(8, assertSkippedThenNextDecodes(bad, Status.MALFORMED_MESSAGE, feeding).requestId());
  }

  /** Metadata the codec must refuse; each frame has request id 9. */
  static Stream<Arguments> malformedMetadata() {
    byte[] proof = new byte[32];
    return Stream.of(
        Arguments.of("string length beyond metadata",
            RawFrame.of(MessageType.REMOVE_APPLICATION).u16(100).raw(new byte[] {'a'})),
        Arguments.of("truncated int", RawFrame.of(MessageType.GET_SCHEDULE_RESULT).string("app").u16(0)),
        Arguments.of("invalid UTF-8", RawFrame.of(MessageType.REMOVE_APPLICATION).u16(2).raw(bytes(0xC3, 0x28))),
        Arguments.of("overlong UTF-8", RawFrame.of(MessageType.REMOVE_APPLICATION).u16(2).raw(bytes(0xC0, 0x80))),
        Arguments.of("UTF-8 surrogate",
            RawFrame.of(MessageType.REMOVE_APPLICATION).u16(3).raw(bytes(0xED, 0xA0, 0x80))),
        Arguments.of("negative count", RawFrame.of(MessageType.FETCH_BLOCKS).i32(-1)),
        Arguments.of("count beyond bytes left", RawFrame.of(MessageType.FETCH_BLOCKS).i32(1_000_000_000)),
        Arguments.of("negative shuffle id", RawFrame.of(MessageType.GET_SCHEDULE_RESULT).string("app").i32(-1)),
        Arguments.of("negative block id field", RawFrame.of(MessageType.GET_BLOCK).blockId("app", 0, -4, 0, 0)),
        Arguments.of("negative secret length", RawFrame.of(MessageType.REGISTER_APPLICATION).string("app").i32(-1)),
        Arguments.of("empty application id", RawFrame.of(MessageType.REMOVE_APPLICATION).string("")),
        Arguments.of("map id below -1",
            RawFrame.of(MessageType.LOCATE_BLOCKS).string("app").i32(0).i32(0).i32(-2)),
        Arguments.of("unknown partitioner kind", RawFrame.of(MessageType.REGISTER_SHUFFLE).string("app")
            .i32(0).i32(1).i32(1).u8(9).i64(0)),
        Arguments.of("worker port 0", RawFrame.of(MessageType.WORKERS).i32(1).string("w").string("h").i32(0)),
        Arguments.of("worker port above 65535",
            RawFrame.of(MessageType.WORKERS).i32(1).string("w").string("h").i32(70_000)),
        Arguments.of("trailing bytes", RawFrame.of(MessageType.ACK).u8(0)),
        Arguments.of("payload type, bad metadata",
            RawFrame.of(MessageType.PUT_BLOCK).string("").payload(new byte[300])),
        Arguments.of("auth section without proof", RawFrame.of(MessageType.LIST_WORKERS).flags(Frames.FLAG_AUTH)
            .string("app")),
        Arguments.of("proof longer than metadata", RawFrame.of(MessageType.LIST_WORKERS).flags(Frames.FLAG_AUTH)
            .string("app").u8(32).raw(new byte[5])),
        Arguments.of("signed, bad metadata", RawFrame.of(MessageType.REMOVE_APPLICATION).flags(Frames.FLAG_AUTH)
            .string("app").u8(32).raw(proof).u16(7)));
  }

  private static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedMetadata")
  void malformedMetadata_failsNonFatallyAndNextFrameDecodes(String what, RawFrame frame) {
    byte[] bad = frame.requestId(9).bytes();
    for (Feeding feeding : Feeding.values()) {
      DecodeFailure f = assertSkippedThenNextDecodes(bad, Status.MALFORMED_MESSAGE, feeding);
      assertEquals(9, f.requestId());
    }
  }

  @Test
  void errorWithUnknownStatusCode_decodesAsInternalErrorNamingTheCode() {
    EmbeddedChannel ch = channel();
    FrameCodecHarness.feedAllAtOnce(ch, RawFrame.of(MessageType.ERROR).requestId(3).u16(999).string("boom").bytes());
    InboundFrame f = assertInstanceOf(InboundFrame.class, ch.readInbound());
    assertEquals(new ErrorAnswer(Status.INTERNAL_ERROR, "unknown status 999: boom"), f.message());
    assertFalse(ch.finish());
  }

  @Test
  void unknownFlagBits_areIgnored() {
    EmbeddedChannel ch = channel();
    FrameCodecHarness.feedAllAtOnce(ch, RawFrame.of(MessageType.ACK).flags(0x8000).requestId(4).bytes());
    InboundFrame f = assertInstanceOf(InboundFrame.class, ch.readInbound());
    assertEquals(new Ack(), f.message());
    assertTrue(f.auth().isEmpty());
    assertFalse(ch.finish());
  }

  /** Cut points in a signed BLOCK_DATA frame: inside the header, the auth section, the metadata, the payload. */
  static Stream<Arguments> cutPoints() {
    return Stream.of(1, Frames.HEADER_LENGTH - 1, Frames.HEADER_LENGTH + 3, Frames.HEADER_LENGTH + 40, -1, -499)
        .map(Arguments::of);
  }

  @ParameterizedTest
  @MethodSource("cutPoints")
  void connectionClosedInsideFrame_yieldsFatalFailure(int cut) {
    byte[] wire = encode(new OutboundFrame(NEXT_ID, NEXT_MESSAGE, Optional.of(SampleMessages.appCredentials()),
        Unpooled.wrappedBuffer(NEXT_PAYLOAD)));
    int length = cut > 0 ? cut : wire.length + cut;
    EmbeddedChannel ch = channel();
    FrameCodecHarness.feedAllAtOnce(ch, Arrays.copyOf(wire, length));
    List<Object> before = readAll(ch);
    assertTrue(ch.finish(), "a failure is pending after close");
    List<Object> after = readAll(ch);
    try {
      assertEquals(1, after.size(), () -> "after close: " + after);
      assertFailure(after.get(0), Status.MALFORMED_MESSAGE, true);
      before.forEach(o -> assertTrue(o instanceof InboundFrame || o instanceof PayloadChunk, o::toString));
      if (length > wire.length - NEXT_PAYLOAD.length) {
        InboundFrame f = assertInstanceOf(InboundFrame.class, before.get(0));
        assertEquals(NEXT_MESSAGE, f.message());
        before.stream().skip(1).forEach(c -> assertFalse(((PayloadChunk) c).last()));
      } else {
        assertTrue(before.isEmpty());
      }
    } finally {
      releaseAll(before);
      releaseAll(after);
    }
  }

  @Test
  void connectionClosedBetweenFrames_yieldsNothing() {
    EmbeddedChannel ch = channel();
    FrameCodecHarness.feedAllAtOnce(ch, nextFrame());
    List<Object> out = readAll(ch);
    releaseAll(out);
    assertEquals(2, out.size());
    assertFalse(ch.finish());
  }
}
