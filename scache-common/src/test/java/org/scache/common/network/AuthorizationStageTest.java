package org.scache.common.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.scache.common.ScacheException;
import org.scache.common.auth.Credentials;
import org.scache.common.auth.FrameSigner;
import org.scache.common.auth.RequestAuthorizer;
import org.scache.common.protocol.ChannelBinding;
import org.scache.common.protocol.DecodeFailure;
import org.scache.common.protocol.ErrorAnswer;
import org.scache.common.protocol.FrameDecoder;
import org.scache.common.protocol.FrameEncoder;
import org.scache.common.protocol.GetBlock;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.MaySend;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.MessageType;
import org.scache.common.protocol.OutboundFrame;
import org.scache.common.protocol.PayloadChunk;
import org.scache.common.protocol.RegisterApplication;
import org.scache.common.protocol.Status;
import org.scache.common.testing.FrameCodecHarness;
import org.scache.common.testing.SampleMessages;

class AuthorizationStageTest {
  private static final String APP = SampleMessages.APP;
  private static final byte[] APP_SECRET = SampleMessages.APP_SECRET;
  private static final byte[] CLUSTER_SECRET = SampleMessages.CLUSTER_SECRET;
  private static final byte[] NONCE = {1, 2, 3, 4};

  private final AtomicInteger refusals = new AtomicInteger();
  private final AtomicInteger authenticated = new AtomicInteger();

  /** A frame as the decoder gives it, signed by {@code principal} with {@code secret} (none when null). */
  private static InboundFrame frame(long requestId, Message m, String principal, byte[] secret, long payload) {
    if (secret == null) {
      return new InboundFrame(requestId, m, Optional.empty(), payload);
    }
    byte[] meta = ("meta of " + requestId).getBytes(StandardCharsets.UTF_8);
    byte[] proof = FrameSigner.sign(principal.equals(Credentials.CLUSTER)
        ? Credentials.cluster(secret) : Credentials.application(principal, secret), m.type().id(), requestId, payload,
        NONCE,
        Unpooled.wrappedBuffer(meta));
    return new InboundFrame(requestId, m, Optional.of(new InboundFrame.AuthTag(principal, proof, requestId,
        new byte[0], NONCE, meta)), payload);
  }

  private static RequestAuthorizer.Secrets secrets(Map<String, byte[]> known, CompletableFuture<byte[]> lookup) {
    return new RequestAuthorizer.Secrets() {
      @Override
      public Optional<byte[]> known(String appId) {
        return Optional.ofNullable(known.get(appId));
      }

      @Override
      public CompletableFuture<byte[]> lookup(String appId) {
        return lookup;
      }
    };
  }

  private AuthorizationStage stage(RequestAuthorizer authorizer) {
    return new AuthorizationStage(authorizer, ChannelBinding.withNonce(NONCE), authenticated::incrementAndGet);
  }

  private RequestAuthorizer authorizer(RequestAuthorizer.Secrets secrets) {
    return new RequestAuthorizer(CLUSTER_SECRET, secrets, refusals::incrementAndGet);
  }

  @Test
  void aPutsPayload_andEveryLaterRequest_waitForItsVerdict_thenPassInOrder() {
    CompletableFuture<byte[]> fromMaster = new CompletableFuture<>();
    EmbeddedChannel channel = new EmbeddedChannel(stage(authorizer(secrets(Map.of(), fromMaster))));
    InboundFrame put = frame(1, SampleMessages.of(MessageType.PUT_BLOCK), APP, APP_SECRET, 8);
    PayloadChunk first = new PayloadChunk(Unpooled.wrappedBuffer(new byte[4]), false);
    PayloadChunk last = new PayloadChunk(Unpooled.wrappedBuffer(new byte[4]), true);
    InboundFrame fetch = frame(2, SampleMessages.of(MessageType.FETCH_BLOCKS), Credentials.CLUSTER, CLUSTER_SECRET, 0);
    channel.writeInbound(put, first, last, fetch);
    assertNull(channel.readInbound(), "nothing passes while the application's secret is fetched");

    fromMaster.complete(APP_SECRET);
    channel.runPendingTasks();
    assertSame(put, channel.readInbound());
    assertSame(first, channel.readInbound());
    assertSame(last, channel.readInbound());
    assertSame(fetch, channel.readInbound());
    assertNull(channel.readOutbound());
    first.release();
    last.release();
  }

  @Test
  void aRefusedPut_isAnsweredByTheStage_itsPayloadDropped_andTheNextRequestPasses() {
    EmbeddedChannel channel = new EmbeddedChannel(stage(authorizer(
        secrets(Map.of(APP, APP_SECRET), new CompletableFuture<>()))));
    InboundFrame forged = frame(1, SampleMessages.of(MessageType.PUT_BLOCK), APP, "a guess".getBytes(), 4);
    PayloadChunk payload = new PayloadChunk(Unpooled.wrappedBuffer(new byte[4]), true);
    InboundFrame next = frame(2, SampleMessages.of(MessageType.GET_BLOCK), APP, APP_SECRET, 0);
    channel.writeInbound(forged, payload, next);

    OutboundFrame answer = channel.readOutbound();
    assertEquals(1, answer.requestId());
    assertEquals(Status.AUTH_FAILED, ((ErrorAnswer) answer.message()).status());
    assertEquals(0, payload.refCnt(), "the refused put's bytes are released, never stored");
    assertSame(next, channel.readInbound());
    assertNull(channel.readInbound());
    assertEquals(1, refusals.get());
  }

  @Test
  void whatWaitsWhenTheConnectionCloses_isReleased() {
    EmbeddedChannel channel = new EmbeddedChannel(stage(authorizer(
        secrets(Map.of(), new CompletableFuture<>()))));
    PayloadChunk payload = new PayloadChunk(Unpooled.wrappedBuffer(new byte[4]), true);
    channel.writeInbound(frame(1, SampleMessages.of(MessageType.PUT_BLOCK), APP, APP_SECRET, 4), payload);
    channel.close();
    assertEquals(0, payload.refCnt());
  }

  /** {@code m} as bytes on a connection bound by {@code sender}, signed with {@code credentials}. */
  private static ByteBuf encoded(ChannelBinding sender, long requestId, Message m, Credentials credentials) {
    EmbeddedChannel ch = new EmbeddedChannel(new FrameEncoder(FrameCodecHarness.MAX_META, sender));
    ch.writeOutbound(new OutboundFrame(requestId, m, Optional.of(credentials), Unpooled.EMPTY_BUFFER));
    ByteBuf out = Unpooled.buffer();
    for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
      out.writeBytes(b);
      b.release();
    }
    ch.finish();
    return out;
  }

  @Test
  void aForgedFrameWithAHighSequence_doesNotShutOutTheGenuineRequestsAfterIt() {
    ChannelBinding receiving = ChannelBinding.withNonce(FrameCodecHarness.NONCE);
    EmbeddedChannel channel = new EmbeddedChannel(
        new FrameDecoder(FrameCodecHarness.MAX_META, FrameCodecHarness.MAX_PAYLOAD, receiving),
        new AuthorizationStage(authorizer(secrets(Map.of(APP, APP_SECRET), new CompletableFuture<>())), receiving,
            authenticated::incrementAndGet));
    ChannelBinding forger = ChannelBinding.withNonce(FrameCodecHarness.NONCE);
    Message get = new GetBlock(SampleMessages.BLOCK_1);
    for (int i = 0; i < 99; i++) {
      encoded(forger, 0, get, SampleMessages.appCredentials()).release();
    }
    ByteBuf forged = encoded(forger, 1, get, Credentials.application(APP, "a guess".getBytes()));
    ByteBuf genuine = encoded(ChannelBinding.withNonce(FrameCodecHarness.NONCE), 2, get,
        SampleMessages.appCredentials());
    channel.writeInbound(forged, genuine.retainedDuplicate());

    OutboundFrame refusal = channel.readOutbound();
    assertEquals(1, refusal.requestId());
    assertEquals(Status.AUTH_FAILED, ((ErrorAnswer) refusal.message()).status());
    InboundFrame passed = channel.readInbound();
    assertEquals(2, passed.requestId(), "sequence 1 passes: the forged sequence 100 never became the floor");
    assertEquals(1, authenticated.get());

    channel.writeInbound(genuine);
    DecodeFailure replay = channel.readInbound();
    assertEquals(Status.AUTH_FAILED, replay.status(), "the genuine frame's own sequence is taken now");
    assertNull(channel.readOutbound());
    assertFalse(channel.finish());
  }

  @Test
  void aFrameRepeatedBeforeTheFirstCopyWasAdmitted_isRefusedAsAReplayByTheStage() {
    ChannelBinding receiving = ChannelBinding.withNonce(FrameCodecHarness.NONCE);
    EmbeddedChannel channel = new EmbeddedChannel(
        new FrameDecoder(FrameCodecHarness.MAX_META, FrameCodecHarness.MAX_PAYLOAD, receiving),
        new AuthorizationStage(authorizer(secrets(Map.of(APP, APP_SECRET), new CompletableFuture<>())), receiving,
            authenticated::incrementAndGet));
    ByteBuf once = encoded(ChannelBinding.withNonce(FrameCodecHarness.NONCE), 3, new GetBlock(SampleMessages.BLOCK_1),
        SampleMessages.appCredentials());
    ByteBuf twice = Unpooled.buffer();
    twice.writeBytes(once, once.readerIndex(), once.readableBytes()).writeBytes(once);
    once.release();
    channel.writeInbound(twice);

    assertEquals(3, ((InboundFrame) channel.readInbound()).requestId());
    assertNull(channel.readInbound());
    OutboundFrame refusal = channel.readOutbound();
    assertEquals(Status.AUTH_FAILED, ((ErrorAnswer) refusal.message()).status());
    assertTrue(((ErrorAnswer) refusal.message()).message().contains("replay"));
    assertFalse(channel.finish());
  }

  @Test
  void whileAVerdictWaits_theConnectionIsNotRead_thenReadingResumes_andTheHeldRequestsPassInOrder() {
    CompletableFuture<byte[]> fromMaster = new CompletableFuture<>();
    AuthorizationStage stage = stage(authorizer(secrets(Map.of(), fromMaster)));
    EmbeddedChannel channel = new EmbeddedChannel(stage);
    List<Object> sent = new ArrayList<>();
    sent.add(frame(1, SampleMessages.of(MessageType.PUT_BLOCK), APP, APP_SECRET, 0));
    for (int i = 2; i <= 200; i++) {
      sent.add(frame(i, SampleMessages.of(MessageType.LIST_WORKERS), null, null, 0));
    }
    // a transport reads as Netty's does: a few messages a read, and no read while auto-read is off
    int next = 0;
    for (int reads = 0; reads < 100 && next < sent.size() && channel.config().isAutoRead(); reads++) {
      for (int i = 0; i < 4 && next < sent.size(); i++) {
        channel.writeInbound(sent.get(next++));
      }
    }
    assertFalse(channel.config().isAutoRead(), "the connection is not read while the verdict waits");
    assertEquals(4, next, "one read, no more");
    assertEquals(3, stage.held(), "what waits is what that read brought");
    assertNull(channel.readInbound());

    fromMaster.complete(APP_SECRET);
    channel.runPendingTasks();
    assertTrue(channel.config().isAutoRead(), "reading resumes with the verdict");
    while (next < sent.size()) {
      channel.writeInbound(sent.get(next++));
    }
    for (Object expected : sent) {
      assertSame(expected, channel.readInbound());
    }
    assertEquals(0, stage.held());
    assertFalse(channel.finish());
  }

  @Test
  void aVerdictThatComes_leavesTheConnectionUnread_whileAnotherPartHoldsIt() {
    CompletableFuture<byte[]> fromMaster = new CompletableFuture<>();
    EmbeddedChannel channel = new EmbeddedChannel(stage(authorizer(secrets(Map.of(), fromMaster))));
    ReadGate.of(channel).pause("a put waits for memory");
    channel.writeInbound(frame(1, SampleMessages.of(MessageType.GET_BLOCK), APP, APP_SECRET, 0));
    fromMaster.complete(APP_SECRET);
    channel.runPendingTasks();
    assertFalse(channel.config().isAutoRead(), "another part of the pipeline holds it unread");
    assertEquals(1, ((InboundFrame) channel.readInbound()).requestId());
    ReadGate.of(channel).resume("a put waits for memory");
    assertTrue(channel.config().isAutoRead(), "read again once no part holds it");
    assertFalse(channel.finish());
  }

  @Test
  void onlyARequestWhoseProofVerified_authenticatesTheConnection_andItIsToldOnce() {
    EmbeddedChannel channel = new EmbeddedChannel(stage(authorizer(
        secrets(Map.of(APP, APP_SECRET), new CompletableFuture<>()))));
    channel.writeInbound(frame(1, SampleMessages.of(MessageType.LIST_WORKERS), null, null, 0));
    channel.writeInbound(frame(2, SampleMessages.of(MessageType.LIST_WORKERS), APP, "a guess".getBytes(), 0));
    channel.writeInbound(frame(3, SampleMessages.of(MessageType.GET_BLOCK), APP, "a guess".getBytes(), 0));
    assertEquals(0, authenticated.get(), "unsigned, unchecked and forged requests do not authenticate");
    channel.writeInbound(frame(4, SampleMessages.of(MessageType.GET_BLOCK), APP, APP_SECRET, 0));
    channel.writeInbound(frame(5, SampleMessages.of(MessageType.FETCH_BLOCKS), Credentials.CLUSTER,
        CLUSTER_SECRET, 0));
    assertEquals(1, authenticated.get(), "told once");
    channel.finishAndReleaseAll();
  }

  @Test
  void eachTypesDeclaredSenders_areWhatTheAuthorizerAllows() {
    RequestAuthorizer auth = authorizer(secrets(Map.of(APP, APP_SECRET), new CompletableFuture<>()));
    Message fetch = SampleMessages.of(MessageType.FETCH_BLOCKS);
    Message get = SampleMessages.of(MessageType.GET_BLOCK);
    assertEquals(Status.AUTH_REQUIRED, verdict(auth, frame(1, fetch, null, null, 0)));
    assertEquals(Status.AUTH_FAILED, verdict(auth, frame(1, fetch, APP, APP_SECRET, 0)));
    assertEquals(Status.OK, verdict(auth, frame(1, fetch, Credentials.CLUSTER, CLUSTER_SECRET, 0)));
    assertEquals(Status.OK, verdict(auth, frame(1, get, APP, APP_SECRET, 0)));
    assertEquals(Status.OK, verdict(auth, frame(1, get, Credentials.CLUSTER, CLUSTER_SECRET, 0)));
    assertEquals(Status.AUTH_FAILED, verdict(auth, frame(1, get, "another-app", APP_SECRET, 0)));
    assertEquals(Status.AUTH_REQUIRED, verdict(auth, frame(1, get, null, null, 0)));
    assertEquals(Status.OK, verdict(auth, frame(1, SampleMessages.of(MessageType.LIST_WORKERS), null, null, 0)));
    Message register = new RegisterApplication("new-app", "its secret".getBytes());
    assertEquals(Status.OK, verdict(auth, frame(1, register, "new-app", "its secret".getBytes(), 0)));
    assertEquals(Status.AUTH_FAILED, verdict(auth, frame(1, register, "new-app", "not it".getBytes(), 0)));
    assertEquals(Status.INVALID_ARGUMENT, verdict(auth, frame(1, new RegisterApplication("new-app",
        new byte[0]), null, null, 0)));
  }

  @Test
  void anApplicationWhoseSecretCannotBeHadNow_isToldToTryAgain_anUnknownOneIsRefused() {
    RequestAuthorizer away = authorizer(secrets(Map.of(), CompletableFuture.failedFuture(
        new ScacheException(Status.CONNECTION_FAILED, "the master is away"))));
    Message get = SampleMessages.of(MessageType.GET_BLOCK);
    assertEquals(Status.NOT_LEADER, verdict(away, frame(1, get, APP, APP_SECRET, 0)));
    RequestAuthorizer unknown = authorizer(secrets(Map.of(), CompletableFuture.failedFuture(
        new ScacheException(Status.UNKNOWN_APPLICATION, "no such application"))));
    assertEquals(Status.UNKNOWN_APPLICATION, verdict(unknown, frame(1, get, APP, APP_SECRET, 0)));
  }

  @Test
  void everyRequestType_declaresItsSenders_andThoseActingForAnApplication_nameIt() {
    for (MessageType t : MessageType.values()) {
      if (t.isResponse()) {
        assertEquals(MaySend.NOBODY, t.maySend(), t.name());
        continue;
      }
      assertNotEquals(MaySend.NOBODY, t.maySend(), t.name());
      if (t.maySend() == MaySend.APPLICATION_OR_CLUSTER) {
        assertInstanceOf(Message.ForApplication.class, SampleMessages.of(t), t.name());
      }
    }
    assertTrue(List.of(MessageType.values()).stream().anyMatch(t -> t.maySend() == MaySend.HOLDER));
  }

  private static Status verdict(RequestAuthorizer auth, InboundFrame frame) {
    try {
      auth.authorize(frame).join();
      return Status.OK;
    } catch (CompletionException e) {
      return ScacheException.from(e).status();
    }
  }
}
