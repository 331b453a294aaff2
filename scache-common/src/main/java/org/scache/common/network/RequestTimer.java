package org.scache.common.network;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import java.util.LinkedHashMap;
import java.util.Map;
import org.scache.common.protocol.DecodeFailure;
import org.scache.common.protocol.ErrorAnswer;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.MessageType;
import org.scache.common.protocol.OutboundFrame;
import org.scache.common.protocol.Status;

/**
 * Times each request of one server connection from its decoded metadata to its answer, and tells a
 * {@link RequestObserver}. State is confined to the connection's event loop; at most
 * {@value #MAX_OPEN} requests are remembered, so a peer that never waits for answers costs no memory.
 */
final class RequestTimer extends ChannelDuplexHandler {
  static final int MAX_OPEN = 1024;

  private record Open(MessageType type, long startNanos) {}

  private final RequestObserver observer;
  private final Map<Long, Open> open = new LinkedHashMap<>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Open> eldest) {
      return size() > MAX_OPEN;
    }
  };

  RequestTimer(RequestObserver observer) {
    this.observer = observer;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof InboundFrame frame) {
      open.put(frame.requestId(), new Open(frame.message().type(), System.nanoTime()));
    } else if (msg instanceof DecodeFailure failure) {
      observer.refused(failure.status());
    }
    ctx.fireChannelRead(msg);
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (msg instanceof OutboundFrame frame && frame.message().type().isResponse()) {
      Open request = open.remove(frame.requestId());
      if (request != null) {
        Status status = frame.message() instanceof ErrorAnswer e ? e.status() : Status.OK;
        long nanos = System.nanoTime() - request.startNanos();
        observer.answered(request.type(), status, nanos);
      }
    }
    ctx.write(msg, promise);
  }
}
