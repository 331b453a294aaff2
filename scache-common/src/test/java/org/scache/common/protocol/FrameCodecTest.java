package org.scache.common.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.scache.common.testing.FrameCodecHarness.decoderChannel;
import static org.scache.common.testing.FrameCodecHarness.encode;
import static org.scache.common.testing.FrameCodecHarness.readAll;
import static org.scache.common.testing.FrameCodecHarness.releaseAll;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.EncoderException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.scache.common.auth.Credentials;
import org.scache.common.testing.FrameCodecHarness;
import org.scache.common.testing.NettyLeakExtension;
import org.scache.common.testing.SampleMessages;

/** Every message type survives {@link FrameEncoder} then {@link FrameDecoder}, however the bytes arrive. */
@ExtendWith(NettyLeakExtension.class)
class FrameCodecTest {

  /** How a test frame is signed. */
  enum Signing {
    UNSIGNED(Optional.empty()),
    APPLICATION(Optional.of(SampleMessages.appCredentials())),
    CLUSTER(Optional.of(SampleMessages.clusterCredentials()));

    final Optional<Credentials> credentials;

    Signing(Optional<Credentials> credentials) {
      this.credentials = credentials;
    }
  }

  /** Every type unsigned, and every request type signed by an application and by the cluster. */
  static Stream<Arguments> frames() {
    return Arrays.stream(MessageType.values()).flatMap(t -> t.isResponse()
        ? Stream.of(Arguments.of(t, Signing.UNSIGNED))
        : Arrays.stream(Signing.values()).map(s -> Arguments.of(t, s)));
  }

  @ParameterizedTest
  @EnumSource(MessageType.class)
  void samples_everyMessageType_hasSampleOfThatTypeAndPayloadOnlyWhereAllowed(MessageType type) {
    assertEquals(type, SampleMessages.of(type).type());
    assertEquals(type.carriesPayload(), SampleMessages.payload(type).length > 0, type + " payload");
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("frames")
  void decoder_fedAllAtOnce_yieldsOriginalFrame(MessageType type, Signing signing) {
    roundTrip(type, signing, (ch, bytes) -> FrameCodecHarness.feedAllAtOnce(ch, bytes));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("frames")
  void decoder_fedOneByteAtATime_yieldsSameFrame(MessageType type, Signing signing) {
    roundTrip(type, signing, FrameCodecHarness::feedOneByteAtATime);
  }

  private static void roundTrip(MessageType type, Signing signing, BiConsumer<EmbeddedChannel, byte[]> feed) {
    Message message = SampleMessages.of(type);
    byte[] payload = SampleMessages.payload(type);
    long requestId = 0x1234_5678_9AL * type.id() + signing.ordinal();
    ByteBuf payloadBuf = ByteBufAllocator.DEFAULT.buffer(payload.length).writeBytes(payload);
    byte[] wire = encode(new OutboundFrame(requestId, message, signing.credentials, payloadBuf));
    assertEquals(0, payloadBuf.refCnt(), "the encoder releases the payload it was given");

    EmbeddedChannel ch = decoderChannel();
    feed.accept(ch, wire);
    List<Object> out = readAll(ch);
    try {
      InboundFrame frame = assertFrame(out, requestId, message, payload);
      assertAuth(frame, signing);
    } finally {
      releaseAll(out);
    }
    assertFalse(ch.finish());
  }

  /** Checks that {@code out} is exactly one frame and its payload; returns the frame. */
  static InboundFrame assertFrame(List<Object> out, long requestId, Message message, byte[] payload) {
    InboundFrame frame = assertInstanceOf(InboundFrame.class, out.get(0));
    assertEquals(message, frame.message());
    assertEquals(requestId, frame.requestId());
    assertEquals(payload.length, frame.payloadLength());
    assertArrayEquals(payload, payloadOf(out.subList(1, out.size())));
    return frame;
  }

  /** Concatenates payload chunks, checking that only the final one is marked last. */
  static byte[] payloadOf(List<Object> chunks) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < chunks.size(); i++) {
      PayloadChunk chunk = assertInstanceOf(PayloadChunk.class, chunks.get(i), "item " + (i + 1));
      assertEquals(i == chunks.size() - 1, chunk.last(), "last() of chunk " + i + " of " + chunks.size());
      assertTrue(chunk.content().isReadable(), "empty chunk " + i);
      bytes.writeBytes(ByteBufUtil.getBytes(chunk.content()));
    }
    return bytes.toByteArray();
  }

  private static void assertAuth(InboundFrame frame, Signing signing) {
    byte[] wrong = "not the secret".getBytes(StandardCharsets.UTF_8);
    switch (signing) {
      case UNSIGNED -> {
        assertTrue(frame.auth().isEmpty());
        assertFalse(frame.verify(SampleMessages.APP, SampleMessages.APP_SECRET));
      }
      case APPLICATION -> {
        assertEquals(SampleMessages.APP, frame.auth().orElseThrow().principal());
        assertTrue(frame.verify(SampleMessages.APP, SampleMessages.APP_SECRET));
        assertFalse(frame.verify(SampleMessages.APP, wrong), "wrong secret");
        assertFalse(frame.verify("app-2", SampleMessages.APP_SECRET), "other principal");
        assertFalse(frame.verify(Credentials.CLUSTER, SampleMessages.APP_SECRET), "cluster principal");
      }
      case CLUSTER -> {
        assertEquals(Credentials.CLUSTER, frame.auth().orElseThrow().principal());
        assertTrue(frame.verify(Credentials.CLUSTER, SampleMessages.CLUSTER_SECRET));
        assertFalse(frame.verify(Credentials.CLUSTER, SampleMessages.APP_SECRET), "wrong secret");
        assertFalse(frame.verify(SampleMessages.APP, SampleMessages.CLUSTER_SECRET), "other principal");
      }
    }
  }

  @Test
  void decoder_everyTypeBackToBackInRandomPieces_yieldsEveryFrameInOrder() {
    Random random = new Random(20240611);
    List<Message> messages = new ArrayList<>();
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    for (int round = 0; round < 3; round++) {
      for (MessageType t : MessageType.values()) {
        Message m = SampleMessages.of(t);
        Optional<Credentials> creds = t.isResponse() ? Optional.empty() : Signing.values()[round].credentials;
        stream.writeBytes(encode(new OutboundFrame(messages.size(), m, creds,
            Unpooled.wrappedBuffer(SampleMessages.payload(t)))));
        messages.add(m);
      }
    }
    EmbeddedChannel ch = decoderChannel();
    FrameCodecHarness.feedInRandomPieces(ch, stream.toByteArray(), random, 97);
    List<Object> out = readAll(ch);
    try {
      int i = 0;
      for (int id = 0; id < messages.size(); id++) {
        int end = i + 1;
        while (end < out.size() && out.get(end) instanceof PayloadChunk) {
          end++;
        }
        Message m = messages.get(id);
        assertFrame(out.subList(i, end), id, m, SampleMessages.payload(m.type()));
        i = end;
      }
      assertEquals(out.size(), i);
    } finally {
      releaseAll(out);
    }
    assertFalse(ch.finish());
  }

  @Test
  void decoder_largePayloadInTwoReads_yieldsOneChunkPerReadSharingTheInput() {
    byte[] payload = SampleMessages.bytes(1 << 20, 7);
    byte[] wire = encode(new OutboundFrame(9, new BlockData(SampleMessages.BLOCK_1), Optional.empty(),
        Unpooled.wrappedBuffer(payload)));
    EmbeddedChannel ch = decoderChannel();
    int headAndMeta = wire.length - payload.length;
    ByteBuf first = ch.alloc().buffer().writeBytes(wire, 0, headAndMeta + 1000);
    ByteBuf second = ch.alloc().buffer().writeBytes(wire, headAndMeta + 1000, payload.length - 1000);
    ch.writeInbound(first);
    ch.writeInbound(second);
    List<Object> out = readAll(ch);
    try {
      assertEquals(3, out.size());
      assertFrame(out, 9, new BlockData(SampleMessages.BLOCK_1), payload);
      assertEquals(1000, ((PayloadChunk) out.get(1)).content().readableBytes());
      ByteBuf lastChunk = ((PayloadChunk) out.get(2)).content();
      byte before = lastChunk.getByte(lastChunk.readerIndex());
      second.setByte(0, ~before);
      assertEquals((byte) ~before, lastChunk.getByte(lastChunk.readerIndex()), "chunk is a view of the input");
    } finally {
      releaseAll(out);
    }
    assertFalse(ch.finish());
    assertEquals(0, first.refCnt());
    assertEquals(0, second.refCnt());
  }

  @Test
  void outboundFrame_payloadOnTypeWithoutPayload_isRejected() {
    ByteBuf payload = Unpooled.wrappedBuffer(new byte[] {1, 2, 3});
    assertThrows(IllegalArgumentException.class,
        () -> new OutboundFrame(1, new Ack(), Optional.empty(), payload));
    payload.release();
  }

  @Test
  void encoder_metadataAboveLimit_failsAndReleasesPayload() {
    EmbeddedChannel ch = new EmbeddedChannel(new FrameEncoder(16));
    ByteBuf payload = ch.alloc().buffer().writeBytes(new byte[100]);
    assertThrows(EncoderException.class, () -> ch.writeOutbound(
        new OutboundFrame(1, new PutBlock(SampleMessages.BLOCK_1), Optional.empty(), payload)));
    assertEquals(0, payload.refCnt());
    assertFalse(ch.finish());
  }

  @Test
  void encoder_stringLongerThanU16_failsAndReleasesPayload() {
    EmbeddedChannel ch = new EmbeddedChannel(
        new FrameEncoder(1 << 20, ChannelBinding.withNonce(FrameCodecHarness.NONCE)));
    ByteBuf payload = ch.alloc().buffer().writeBytes(new byte[10]);
    String longId = "a".repeat(70_000);
    assertThrows(EncoderException.class, () -> ch.writeOutbound(new OutboundFrame(1,
        new PutBlock(new org.scache.common.BlockId(longId, 0, 0, 0, 0)),
        Optional.of(SampleMessages.appCredentials()), payload)));
    assertEquals(0, payload.refCnt());
    assertFalse(ch.finish());
  }

  @Test
  void encoder_header_matchesDocumentedLayout() {
    byte[] payload = SampleMessages.payload(MessageType.BLOCK_DATA);
    byte[] wire = encode(new OutboundFrame(0x0102030405060708L, SampleMessages.of(MessageType.BLOCK_DATA),
        Optional.empty(), Unpooled.wrappedBuffer(payload)));
    ByteBuf b = Unpooled.wrappedBuffer(wire);
    assertEquals(Frames.MAGIC, b.readInt());
    assertEquals(Frames.VERSION, b.readUnsignedByte());
    assertEquals(MessageType.BLOCK_DATA.id(), b.readUnsignedByte());
    assertEquals(0, b.readUnsignedShort());
    assertEquals(0x0102030405060708L, b.readLong());
    long meta = b.readUnsignedInt();
    assertEquals(payload.length, b.readLong());
    assertEquals(wire.length, Frames.HEADER_LENGTH + meta + payload.length);
  }
}
