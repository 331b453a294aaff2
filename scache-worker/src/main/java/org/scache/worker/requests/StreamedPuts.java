package org.scache.worker.requests;

import io.netty.channel.ChannelHandlerContext;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.scache.common.ScacheException;
import org.scache.common.auth.PayloadDigest;
import org.scache.common.network.RequestDispatcher;
import org.scache.common.protocol.Ack;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.PayloadChunk;
import org.scache.common.protocol.PutBlock;
import org.scache.common.protocol.Status;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.store.BlockPuts;
import org.scache.worker.store.PendingPut;

/**
 * Reassembles the puts of one connection: a {@code PUT_BLOCK} takes its memory from {@link BlockPuts}
 * (made off the event loop when blocks must spill first), its payload chunks are copied in as they
 * arrive (queued while the memory is being made), the payload is checked against the digest its proof
 * covers, and the whole block is committed and acknowledged. A connection that closes or breaks gives
 * back the memory of its unfinished puts. Used from the connection's event loop.
 */
final class StreamedPuts {
  private final BlockPuts puts;
  private final WorkerCounters counters;
  private final boolean payloadDigestRequired;
  private final Set<IncomingPut> open = new HashSet<>();
  /** The put whose payload arrives now, if its payload is still to come. */
  private IncomingPut receiving;

  /** @param payloadDigestRequired whether a put whose proof covers no digest of its payload is refused */
  StreamedPuts(BlockPuts puts, WorkerCounters counters, boolean payloadDigestRequired) {
    this.puts = puts;
    this.counters = counters;
    this.payloadDigestRequired = payloadDigestRequired;
  }

  /** A {@code PUT_BLOCK} arrived: its payload, if any, follows in chunks. */
  void start(ChannelHandlerContext ctx, InboundFrame frame, PutBlock m) {
    IncomingPut p = new IncomingPut(frame.requestId(), m, frame.payloadLength(), frame.signedPayloadDigest());
    open.add(p);
    receiving = frame.payloadLength() > 0 ? p : null;
    p.lastSeen = frame.payloadLength() == 0;
    // memory is taken at once when there is room; making room (spilling) runs off the event loop
    CompletableFuture<PendingPut> sink = puts.beginAsync(m.blockId(), p.expected);
    if (sink.isDone()) {
      sinkReady(ctx, p, sink);
    } else {
      sink.whenCompleteAsync((v, x) -> sinkReady(ctx, p, sink), ctx.executor());
    }
  }

  private void sinkReady(ChannelHandlerContext ctx, IncomingPut p, CompletableFuture<PendingPut> sink) {
    PendingPut target = null;
    try {
      target = sink.join();
    } catch (RuntimeException x) {
      ScacheException se = ScacheException.from(x);
      if (se.status() == Status.RETRY_LATER) {
        counters.busyPuts.increment();
      } else {
        counters.refusedPuts.increment();
      }
      p.failure = se;
    }
    if (!open.contains(p)) {
      // the connection closed while memory was being made
      if (target != null) {
        target.abort();
      }
      return;
    }
    p.sink = target;
    p.ready = true;
    drain(ctx, p);
  }

  /** A chunk of the payload of the put being received; dropped when no put is. Takes the chunk. */
  void onPayload(ChannelHandlerContext ctx, PayloadChunk chunk) {
    IncomingPut p = receiving;
    if (p == null) {
      chunk.release();
      return;
    }
    if (chunk.last()) {
      p.lastSeen = true;
      receiving = null;
    }
    if (p.digest != null) {
      p.digest.update(chunk.content());
    }
    if (p.ready) {
      consume(p, chunk);
      drain(ctx, p);
    } else {
      p.queued.add(chunk);
    }
  }

  private void drain(ChannelHandlerContext ctx, IncomingPut p) {
    while (!p.queued.isEmpty()) {
      consume(p, p.queued.poll());
    }
    if (p.ready && p.lastSeen) {
      open.remove(p);
      finish(ctx, p);
    }
  }

  private void consume(IncomingPut p, PayloadChunk chunk) {
    try {
      if (p.failure == null) {
        p.sink.write(chunk.content());
      }
    } catch (ScacheException e) {
      p.failure = e;
    } finally {
      chunk.release();
    }
  }

  private void finish(ChannelHandlerContext ctx, IncomingPut p) {
    if (p.failure == null && p.expected > 0) {
      if (p.digest != null && !p.digest.matches(p.signedDigest)) {
        counters.authFailures.increment();
        p.failure = new ScacheException(Status.AUTH_FAILED, "the payload of PUT_BLOCK " + p.message.blockId()
            + " does not match the digest its proof covers");
      } else if (p.digest == null && payloadDigestRequired) {
        counters.authFailures.increment();
        p.failure = new ScacheException(Status.AUTH_FAILED, "PUT_BLOCK " + p.message.blockId() + " carries no payload "
            + "digest, which this worker requires (scache.security.payload.digest.enabled)");
      }
    }
    if (p.failure != null) {
      if (p.sink != null) {
        p.sink.abort();
      }
      RequestDispatcher.replyError(ctx, p.requestId, p.failure.status(), p.failure.detail());
      return;
    }
    try {
      puts.commit(p.sink);
      RequestDispatcher.reply(ctx, p.requestId, new Ack());
    } catch (ScacheException e) {
      RequestDispatcher.replyError(ctx, p.requestId, e.status(), e.detail());
    }
  }

  /** Gives back the memory of every unfinished put and drops their queued payload; later chunks are dropped. */
  void abortAll() {
    receiving = null;
    for (IncomingPut p : open) {
      p.queued.forEach(PayloadChunk::release);
      p.queued.clear();
      if (p.sink != null) {
        p.sink.abort();
      }
    }
    open.clear();
  }

  /** A put whose payload is arriving on this connection. */
  private static final class IncomingPut {
    final long requestId;
    final PutBlock message;
    final long expected;
    final byte[] signedDigest;
    /** Hashes the payload as it arrives, when the proof covers a digest of it. */
    final PayloadDigest digest;
    final ArrayDeque<PayloadChunk> queued = new ArrayDeque<>();
    PendingPut sink;
    ScacheException failure;
    boolean ready;
    boolean lastSeen;

    IncomingPut(long requestId, PutBlock message, long expected, byte[] signedDigest) {
      this.requestId = requestId;
      this.message = message;
      this.expected = expected;
      this.signedDigest = signedDigest;
      this.digest = signedDigest.length > 0 ? new PayloadDigest() : null;
    }
  }
}
