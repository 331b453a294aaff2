package org.scache.metrics;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Reads one request on a connection of an HTTP endpoint and writes its answer: the request's line and
 * headers must all arrive within the request timeout of the connection's opening, else it is answered
 * 408; they may take at most {@link #MAX_HEAD_BYTES}, else 431. The answer is built on the endpoint's
 * threads (never on the event loop, which only moves bytes), written, and the connection closed.
 * State is confined to the connection's event loop.
 */
final class HttpRequestReader extends ChannelInboundHandlerAdapter {
  /** Most bytes a request's line and headers may take. */
  static final int MAX_HEAD_BYTES = 16 * 1024;
  /** How long an answered connection waits for its peer to close before it closes itself. */
  private static final long LINGER_MILLIS = 1000;

  private enum State { READING, ANSWERING, DONE }

  private final Duration requestTimeout;
  private final Executor threads;
  private final Function<HttpRequestHead, HttpEndpoint.Response> routes;
  private State state = State.READING;
  private ByteBuf head;
  private ScheduledFuture<?> deadline;

  HttpRequestReader(Duration requestTimeout, Executor threads,
      Function<HttpRequestHead, HttpEndpoint.Response> routes) {
    this.requestTimeout = requestTimeout;
    this.threads = threads;
    this.routes = routes;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    head = ctx.alloc().buffer(512, MAX_HEAD_BYTES);
    deadline = ctx.executor().schedule(() -> {
      if (state == State.READING) {
        answer(ctx, HttpEndpoint.Response.text(408, "the request did not arrive within " + requestTimeout.toMillis()
            + " ms (scache.network.http.request.timeout)\n"), false);
      }
    }, requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
    super.channelActive(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      if (state != State.READING || !(msg instanceof ByteBuf in)) {
        return;
      }
      int searchFrom = Math.max(0, head.writerIndex() - 3);
      if (in.readableBytes() > head.maxWritableBytes()) {
        answer(ctx, HttpEndpoint.Response.text(431, "a request's line and headers take at most " + MAX_HEAD_BYTES
            + " bytes\n"), false);
        return;
      }
      head.writeBytes(in);
      int end = endOfHead(head, searchFrom);
      if (end >= 0) {
        read(ctx, head.toString(0, end, StandardCharsets.ISO_8859_1));
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  /** Where the blank line that ends a request's headers ends, or -1 before it has arrived. */
  private static int endOfHead(ByteBuf b, int from) {
    for (int i = from; i < b.writerIndex(); i++) {
      if (b.getByte(i) == '\n') {
        if (i + 1 < b.writerIndex() && b.getByte(i + 1) == '\n') {
          return i + 2;
        }
        if (i + 2 < b.writerIndex() && b.getByte(i + 1) == '\r' && b.getByte(i + 2) == '\n') {
          return i + 3;
        }
      }
    }
    return -1;
  }

  private void read(ChannelHandlerContext ctx, String text) {
    HttpRequestHead request;
    try {
      request = HttpRequestHead.parse(text);
    } catch (IllegalArgumentException e) {
      answer(ctx, HttpEndpoint.Response.text(400, "bad request: " + e.getMessage() + "\n"), false);
      return;
    }
    state = State.ANSWERING;
    cancelDeadline();
    // nothing more is read from a connection that has sent its request
    ctx.channel().config().setAutoRead(false);
    boolean isHead = "HEAD".equals(request.method());
    try {
      threads.execute(() -> {
        HttpEndpoint.Response response = routes.apply(request);
        ctx.executor().execute(() -> answer(ctx, response, isHead));
      });
    } catch (RejectedExecutionException e) {
      answer(ctx, HttpEndpoint.Response.text(503, "too many requests wait for an answer; try again\n"), isHead);
    }
  }

  /** Writes {@code response}, then closes the connection once the peer has had it. */
  private void answer(ChannelHandlerContext ctx, HttpEndpoint.Response response, boolean isHead) {
    if (state == State.DONE || !ctx.channel().isActive()) {
      return;
    }
    state = State.DONE;
    cancelDeadline();
    ctx.channel().config().setAutoRead(true);
    ctx.writeAndFlush(HttpAnswers.encode(ctx.alloc(), response, isHead)).addListener((ChannelFuture f) -> {
      if (!f.isSuccess() || !(f.channel() instanceof DuplexChannel duplex)) {
        f.channel().close();
        return;
      }
      // half-close: the peer reads the whole answer, and what it still sends is read and dropped, not reset
      duplex.shutdownOutput();
      ctx.executor().schedule(() -> ctx.close(), LINGER_MILLIS, TimeUnit.MILLISECONDS);
    });
  }

  private void cancelDeadline() {
    if (deadline != null) {
      deadline.cancel(false);
      deadline = null;
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    cancelDeadline();
    state = State.DONE;
    super.channelInactive(ctx);
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    if (head != null) {
      head.release();
      head = null;
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ctx.close();
  }
}
