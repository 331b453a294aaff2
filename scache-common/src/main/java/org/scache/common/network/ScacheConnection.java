package org.scache.common.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannelConfig;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.scache.common.ScacheException;
import org.scache.common.auth.Credentials;
import org.scache.common.protocol.ChannelBinding;
import org.scache.common.protocol.DecodeFailure;
import org.scache.common.protocol.ErrorAnswer;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.OutboundFrame;
import org.scache.common.protocol.PayloadChunk;
import org.scache.common.protocol.ServerHello;
import org.scache.common.protocol.Status;

/**
 * One client connection to a master or worker. Many calls may be in flight at once; answers are
 * matched by request id, payloads are gathered without copying, and every call ends: with its
 * answer, its error status, {@link Status#TIMEOUT}, or {@link Status#CONNECTION_FAILED}.
 */
public final class ScacheConnection implements ClientConnection {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ScacheConnection.class);
  private static final AtomicLong REQUEST_IDS = new AtomicLong();

  private final Channel channel;
  private final String peer;
  private final Map<Long, PendingCall> pending = new ConcurrentHashMap<>();

  ScacheConnection(Channel channel, String peer) {
    this.channel = channel;
    this.peer = peer;
    channel.closeFuture().addListener(f -> failAll(new ScacheException(Status.CONNECTION_FAILED,
        "connection to " + peer + " closed")));
  }

  /** The connection's channel, for tests of its options. */
  Channel channel() {
    return channel;
  }

  /**
   * The handler to install last in the connection's pipeline; it completes {@code greeted} when the
   * peer's {@link ServerHello} has given {@code binding} its nonce.
   */
  static ClientHandler handlerFor(ScacheConnection[] holder, ChannelBinding binding, CompletableFuture<Void> greeted) {
    return new ClientHandler(holder, binding, greeted);
  }

  @Override
  public String peer() {
    return peer;
  }

  @Override
  public boolean isActive() {
    return channel.isActive();
  }

  /** The receive buffer (SO_RCVBUF) the socket has, as the kernel reports it. */
  int receiveBufferBytes() {
    return ((SocketChannelConfig) channel.config()).getReceiveBufferSize();
  }

  /** Sends {@code message} with {@code payload} (owned by the call from now on) and waits for nothing. */
  @Override
  public CompletableFuture<Reply> call(Message message, Optional<Credentials> credentials, ByteBuf payload,
      Duration timeout) {
    long id = REQUEST_IDS.incrementAndGet();
    PendingCall call = new PendingCall(id);
    pending.put(id, call);
    if (!channel.isActive()) {
      payload.release();
      fail(id, new ScacheException(Status.CONNECTION_FAILED, "connection to " + peer + " is closed"));
      return call.future;
    }
    call.timeout = channel.eventLoop().schedule(() -> fail(id, new ScacheException(Status.TIMEOUT,
        message.type() + " to " + peer + " got no answer within " + timeout.toMillis() + " ms")),
        timeout.toMillis(), TimeUnit.MILLISECONDS);
    channel.writeAndFlush(new OutboundFrame(id, message, credentials, payload)).addListener(f -> {
      if (!f.isSuccess()) {
        fail(id, new ScacheException(Status.CONNECTION_FAILED, "cannot send " + message.type() + " to " + peer
            + ": " + f.cause(), f.cause()));
      }
    });
    return call.future;
  }

  private void fail(long id, ScacheException e) {
    PendingCall call = pending.remove(id);
    if (call != null) {
      call.finish();
      call.future.completeExceptionally(e);
    }
  }

  private void failAll(ScacheException e) {
    for (Long id : pending.keySet()) {
      fail(id, e);
    }
  }

  @Override
  public void close() {
    channel.close();
  }

  private static final class PendingCall {
    final long id;
    final CompletableFuture<Reply> future = new CompletableFuture<>();
    ScheduledFuture<?> timeout;
    Message answer;
    CompositeByteBuf payload;

    PendingCall(long id) {
      this.id = id;
    }

    void finish() {
      if (timeout != null) {
        timeout.cancel(false);
      }
      if (payload != null) {
        payload.release();
        payload = null;
      }
    }
  }

  /** Matches answers to calls; runs on the connection's event loop. */
  static final class ClientHandler extends SimpleChannelInboundHandler<Object> {
    private final ScacheConnection[] holder;
    private final ChannelBinding binding;
    private final CompletableFuture<Void> greeted;
    private PendingCall receiving;
    private long receivingId;

    ClientHandler(ScacheConnection[] holder, ChannelBinding binding, CompletableFuture<Void> greeted) {
      super(false);
      this.holder = holder;
      this.binding = binding;
      this.greeted = greeted;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Object msg) {
      ScacheConnection conn = holder[0];
      if (msg instanceof InboundFrame frame && frame.message() instanceof ServerHello hello) {
        try {
          binding.learn(hello.nonce());
          greeted.complete(null);
        } catch (RuntimeException e) {
          greeted.completeExceptionally(new ScacheException(Status.BAD_FRAME, "bad greeting from "
              + ctx.channel().remoteAddress() + ": " + e.getMessage()));
          ctx.close();
        }
      } else if (msg instanceof InboundFrame frame && !greeted.isDone()
          && frame.message() instanceof ErrorAnswer err) {
        // refused before the greeting, e.g. at a connection limit
        greeted.completeExceptionally(new ScacheException(err.status(), ctx.channel().remoteAddress()
            + " refused the connection: " + err.message()));
      } else if (msg instanceof InboundFrame frame) {
        PendingCall call = conn.pending.get(frame.requestId());
        if (frame.message() instanceof ErrorAnswer err) {
          conn.fail(frame.requestId(), new ScacheException(err.status(), err.message()));
          startPayload(null, frame);
        } else if (frame.payloadLength() == 0) {
          complete(conn, call, frame.message(), Unpooled.EMPTY_BUFFER);
        } else {
          startPayload(call, frame);
        }
      } else if (msg instanceof PayloadChunk chunk) {
        PendingCall call = receiving != null && conn.pending.get(receivingId) == receiving ? receiving : null;
        if (call == null) {
          chunk.release();
        } else {
          call.payload.addComponent(true, chunk.content());
        }
        if (chunk.last()) {
          receiving = null;
          if (call != null) {
            CompositeByteBuf data = call.payload;
            call.payload = null;
            complete(conn, call, call.answer, data);
          }
        }
      } else if (msg instanceof DecodeFailure failure) {
        if (failure.fatal()) {
          conn.failAll(new ScacheException(failure.status(), "bad answer from " + conn.peer + ": "
              + failure.message()));
          ctx.close();
        } else {
          conn.fail(failure.requestId(), new ScacheException(failure.status(), failure.message()));
        }
      } else {
        ReferenceCountUtil.release(msg);
      }
    }

    private void startPayload(PendingCall call, InboundFrame frame) {
      if (frame.payloadLength() == 0) {
        return;
      }
      receiving = call;
      receivingId = frame.requestId();
      if (call != null) {
        call.answer = frame.message();
        call.payload = Unpooled.compositeBuffer(Integer.MAX_VALUE);
      }
    }

    private static void complete(ScacheConnection conn, PendingCall call, Message answer, ByteBuf payload) {
      if (call == null || conn.pending.remove(call.id) == null) {
        payload.release();
        return;
      }
      call.finish();
      if (!call.future.complete(new Reply(answer, payload))) {
        payload.release();
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ScacheConnection conn = holder[0];
      String peer = conn == null ? String.valueOf(ctx.channel().remoteAddress()) : conn.peer;
      if (cause instanceof java.io.IOException) {
        LOG.debug("connection to {} failed: {}", peer, cause.toString());
      } else {
        LOG.warn("connection to {} failed on this side: {}", peer, cause.toString());
      }
      if (conn != null) {
        conn.failAll(new ScacheException(cause instanceof java.io.IOException ? Status.CONNECTION_FAILED
            : Status.INTERNAL_ERROR, "connection to " + peer + " failed on this side: " + cause, cause));
      }
      ctx.close();
    }
  }
}
