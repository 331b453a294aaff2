package org.scache.common.network;

import io.netty.channel.ChannelHandlerContext;
import java.util.ArrayDeque;

/**
 * A connection's writes that wait for it to be writable, so that answers a slow peer does not read
 * pile up no further than the connection's high water mark ({@link TransportSettings#writeBufferHighBytes}):
 * a write is made at once while the connection is writable and nothing waits before it, else in order once
 * the queued bytes have fallen below the low water mark. A write may build its bytes only when it is made
 * (read a spilled block then, not before). One per connection; its handler forwards
 * {@code channelWritabilityChanged} and {@code channelInactive} here (the worker's paced block answers do).
 */
public final class WhenWritable {
  /** A write made later, or dropped when the connection closes first. */
  public interface PendingWrite {
    /** Makes the write; called on the connection's event loop, while it is writable. */
    void write(ChannelHandlerContext ctx);

    /** The connection closed before the write was made: releases what it holds. */
    default void drop() {}
  }

  private final ArrayDeque<PendingWrite> waiting = new ArrayDeque<>();
  private boolean closed;

  /** Makes {@code write} now when the connection is writable and nothing waits before it, else once it is. */
  public void submit(ChannelHandlerContext ctx, PendingWrite write) {
    if (!ctx.executor().inEventLoop()) {
      ctx.executor().execute(() -> submit(ctx, write));
      return;
    }
    if (closed || !ctx.channel().isActive()) {
      write.drop();
      return;
    }
    waiting.add(write);
    drain(ctx);
  }

  /** The connection's writability changed: makes the writes that wait, while it stays writable. */
  public void writabilityChanged(ChannelHandlerContext ctx) {
    drain(ctx);
  }

  /** The connection closed: every write that waits is dropped, and later ones are dropped at once. */
  public void closed() {
    closed = true;
    while (!waiting.isEmpty()) {
      waiting.poll().drop();
    }
  }

  /** Writes that wait now. */
  public int waiting() {
    return waiting.size();
  }

  private void drain(ChannelHandlerContext ctx) {
    while (!closed && !waiting.isEmpty() && ctx.channel().isWritable()) {
      waiting.poll().write(ctx);
    }
  }
}
