package org.scache.worker.requests;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import org.scache.common.network.WhenWritable;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.OutboundFrame;

/**
 * One connection's answers that carry block data, written only while the connection is writable
 * (its outbound buffer below the high water mark): an answer ready while the peer does not read
 * waits here, and the connection is not read ({@link ReadPauses}), so that a peer that asks for
 * blocks and reads slowly cannot make the worker buffer without bound; the answers go on, in order,
 * when the connection becomes writable again ({@link WhenWritable} keeps them). Used from the
 * connection's event loop (an answer ready on another thread is handed to it).
 */
final class PacedReplies {
  private final ReadPauses reads;
  private final WhenWritable writes = new WhenWritable();
  private boolean closed;

  PacedReplies(ReadPauses reads) {
    this.reads = reads;
  }

  /** Sends {@code answer} with {@code payload} (which the write releases) once the connection is writable. */
  void send(ChannelHandlerContext ctx, long requestId, Message answer, ByteBuf payload) {
    if (!ctx.executor().inEventLoop()) {
      try {
        ctx.executor().execute(() -> send(ctx, requestId, answer, payload));
      } catch (RejectedExecutionException stopping) {
        payload.release();
      }
      return;
    }
    if (closed || !ctx.channel().isActive()) {
      payload.release();
      return;
    }
    OutboundFrame frame = new OutboundFrame(requestId, answer, Optional.empty(), payload);
    writes.submit(ctx, new WhenWritable.PendingWrite() {
      @Override
      public void write(ChannelHandlerContext c) {
        c.writeAndFlush(frame);
      }

      @Override
      public void drop() {
        payload.release();
      }
    });
    pauseReadsWhileUnwritable(ctx);
  }

  /** The connection's writability changed: writes what waits while it is writable. */
  void writabilityChanged(ChannelHandlerContext ctx) {
    if (!closed) {
      writes.writabilityChanged(ctx);
      pauseReadsWhileUnwritable(ctx);
    }
  }

  private void pauseReadsWhileUnwritable(ChannelHandlerContext ctx) {
    if (ctx.channel().isWritable()) {
      reads.resume(ctx.channel(), ReadPauses.Reason.PEER_NOT_READING);
    } else {
      reads.pause(ctx.channel(), ReadPauses.Reason.PEER_NOT_READING);
    }
  }

  /** Answers waiting to be written. */
  int waiting() {
    return writes.waiting();
  }

  /** The connection closed: releases the data of every answer still waiting. */
  void close() {
    closed = true;
    writes.closed();
  }
}
