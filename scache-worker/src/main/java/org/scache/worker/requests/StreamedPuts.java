package org.scache.worker.requests;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.auth.PayloadDigest;
import org.scache.common.network.RequestDispatcher;
import org.scache.common.protocol.Ack;
import org.scache.common.protocol.ErrorAnswer;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.OutboundFrame;
import org.scache.common.protocol.PayloadChunk;
import org.scache.common.protocol.PutBlock;
import org.scache.common.protocol.Status;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.store.BlockPuts;
import org.scache.worker.store.PendingPut;

/**
 * Reassembles the puts of one connection: a {@code PUT_BLOCK} is admitted against the bytes its
 * application and its connection hold in puts in flight ({@link InFlightPuts}), takes its memory from
 * {@link BlockPuts} (made off the event loop when blocks must spill first, while the connection is
 * not read: {@link ReadPauses}), its payload chunks are copied in as they arrive, the payload is
 * checked against the digest its proof covers, and the whole block is committed and acknowledged. A
 * put whose payload gets no byte for the stall timeout while the connection is read is aborted, and
 * the connection answered {@code TIMEOUT} and closed. A connection that closes or breaks gives back
 * the memory of its unfinished puts. Used from the connection's event loop.
 */
final class StreamedPuts {
  private final BlockPuts puts;
  /** Takes a put's memory: {@link BlockPuts#beginAsync}. */
  private final BiFunction<BlockId, Long, CompletableFuture<PendingPut>> memory;
  private final InFlightPuts inFlight;
  private final WorkerCounters counters;
  private final boolean payloadDigestRequired;
  private final ReadPauses reads;
  private final Set<IncomingPut> open = new LinkedHashSet<>();
  /** The put whose payload arrives now, if its payload is still to come. */
  private IncomingPut receiving;
  /** Bytes announced by the open puts admitted on this connection. */
  private long connectionBytes;
  private int admittedPuts;
  /** When the payload being received last made progress (or the connection was last read again). */
  private long lastProgressNanos;
  private ScheduledFuture<?> stallCheck;
  private ChannelHandlerContext ctx;

  /** @param payloadDigestRequired whether a put whose proof covers no digest of its payload is refused */
  StreamedPuts(BlockPuts puts, InFlightPuts inFlight, WorkerCounters counters, boolean payloadDigestRequired,
      ReadPauses reads) {
    this(puts, puts::beginAsync, inFlight, counters, payloadDigestRequired, reads);
  }

  /** @param memory takes a put's memory (in tests, later than the store would) */
  StreamedPuts(BlockPuts puts, BiFunction<BlockId, Long, CompletableFuture<PendingPut>> memory, InFlightPuts inFlight,
      WorkerCounters counters, boolean payloadDigestRequired, ReadPauses reads) {
    this.puts = puts;
    this.memory = memory;
    this.inFlight = inFlight;
    this.counters = counters;
    this.payloadDigestRequired = payloadDigestRequired;
    this.reads = reads;
  }

  /** A {@code PUT_BLOCK} arrived: its payload, if any, follows in chunks. */
  void start(ChannelHandlerContext ctx, InboundFrame frame, PutBlock m) {
    this.ctx = ctx;
    IncomingPut p = new IncomingPut(frame.requestId(), m, frame.payloadLength(), frame.signedPayloadDigest());
    try {
      inFlight.admit(m.blockId().appId(), p.expected, connectionBytes, admittedPuts);
    } catch (ScacheException refused) {
      counters.busyPuts.increment();
      p.failure = refused;
      p.ready = true;
    }
    open.add(p);
    receiving = frame.payloadLength() > 0 ? p : null;
    p.lastSeen = frame.payloadLength() == 0;
    if (receiving != null) {
      watchForStall();
    }
    if (p.ready) {
      drain(ctx, p);
      return;
    }
    p.admitted = true;
    connectionBytes += p.expected;
    admittedPuts++;
    // memory is taken at once when there is room; making room (spilling) runs off the event loop
    CompletableFuture<PendingPut> sink = memory.apply(m.blockId(), p.expected);
    if (sink.isDone()) {
      sinkReady(ctx, p, sink);
    } else {
      reads.pause(ctx.channel(), ReadPauses.Reason.PUT_WAITS_FOR_MEMORY);
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
      // the connection closed, or the put stalled, while memory was being made
      if (target != null) {
        target.abort();
      }
      return;
    }
    p.sink = target;
    p.ready = true;
    if (open.stream().allMatch(o -> o.ready)) {
      reads.resume(ctx.channel(), ReadPauses.Reason.PUT_WAITS_FOR_MEMORY);
    }
    drain(ctx, p);
  }

  /** A chunk of the payload of the put being received; dropped when no put is. Takes the chunk. */
  void onPayload(ChannelHandlerContext ctx, PayloadChunk chunk) {
    IncomingPut p = receiving;
    if (p == null) {
      chunk.release();
      return;
    }
    lastProgressNanos = inFlight.clock().nanos();
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
      p.queuedBytes += chunk.content().readableBytes();
    }
  }

  private void drain(ChannelHandlerContext ctx, IncomingPut p) {
    while (!p.queued.isEmpty()) {
      PayloadChunk c = p.queued.poll();
      p.queuedBytes -= c.content().readableBytes();
      consume(p, c);
    }
    if (p.ready && p.lastSeen) {
      close(p);
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

  /** The put is no longer open: its bytes no longer count as in flight. */
  private void close(IncomingPut p) {
    open.remove(p);
    if (p.admitted) {
      p.admitted = false;
      connectionBytes -= p.expected;
      admittedPuts--;
      inFlight.release(p.message.blockId().appId(), p.expected);
    }
  }

  // ---------------------------------------------------------------- stalls

  /** The connection is read again: a stall counts from now. */
  void readsResumed() {
    lastProgressNanos = inFlight.clock().nanos();
  }

  private void watchForStall() {
    lastProgressNanos = inFlight.clock().nanos();
    if (stallCheck == null) {
      scheduleStallCheck(inFlight.stallTimeout().toNanos());
    }
  }

  private void scheduleStallCheck(long inNanos) {
    stallCheck = ctx.executor().schedule(this::checkStall, Math.max(1, inNanos), TimeUnit.NANOSECONDS);
  }

  private void checkStall() {
    stallCheck = null;
    if (receiving == null || !ctx.channel().isActive()) {
      return;
    }
    long now = inFlight.clock().nanos();
    long timeout = inFlight.stallTimeout().toNanos();
    if (reads.paused()) {
      // the worker does not read the connection: the peer cannot be stalling it
      lastProgressNanos = now;
    }
    long quiet = now - lastProgressNanos;
    if (quiet < timeout) {
      scheduleStallCheck(timeout - quiet);
      return;
    }
    IncomingPut p = receiving;
    counters.stalledPuts.increment();
    String detail = "no byte of the payload of PUT_BLOCK " + p.message.blockId() + " arrived for "
        + TimeUnit.NANOSECONDS.toMillis(quiet) + " ms (scache.worker.put.stall.timeout); the put is aborted and "
        + "the connection closed";
    abortAll();
    ctx.writeAndFlush(OutboundFrame.of(p.requestId, new ErrorAnswer(Status.TIMEOUT, detail)))
        .addListener(ChannelFutureListener.CLOSE);
  }

  // ---------------------------------------------------------------- the connection ends

  /** Gives back the memory of every unfinished put and drops their queued payload; later chunks are dropped. */
  void abortAll() {
    receiving = null;
    if (stallCheck != null) {
      stallCheck.cancel(false);
      stallCheck = null;
    }
    for (IncomingPut p : new ArrayList<>(open)) {
      p.queued.forEach(PayloadChunk::release);
      p.queued.clear();
      p.queuedBytes = 0;
      if (p.sink != null) {
        p.sink.abort();
      }
      close(p);
    }
  }

  /** Bytes of payload received and queued while their puts wait for memory. */
  long queuedBytes() {
    long n = 0;
    for (IncomingPut p : open) {
      n += p.queuedBytes;
    }
    return n;
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
    long queuedBytes;
    PendingPut sink;
    ScacheException failure;
    boolean ready;
    boolean lastSeen;
    /** Counted in flight (for its application and this connection) until it ends. */
    boolean admitted;

    IncomingPut(long requestId, PutBlock message, long expected, byte[] signedDigest) {
      this.requestId = requestId;
      this.message = message;
      this.expected = expected;
      this.signedDigest = signedDigest;
      this.digest = signedDigest.length > 0 ? new PayloadDigest() : null;
    }
  }
}
