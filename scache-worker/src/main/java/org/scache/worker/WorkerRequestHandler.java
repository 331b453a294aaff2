package org.scache.worker;

import io.netty.channel.ChannelHandlerContext;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.concurrent.CompletableFuture;
import org.scache.common.ScacheException;
import org.scache.common.auth.PayloadDigest;
import org.scache.common.network.RequestDispatcher;
import org.scache.common.protocol.Ack;
import org.scache.common.protocol.BlockData;
import org.scache.common.protocol.BlocksData;
import org.scache.common.protocol.DecodeFailure;
import org.scache.common.protocol.FetchBlocks;
import org.scache.common.protocol.GetBlock;
import org.scache.common.protocol.GetReduceInput;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.MapFinished;
import org.scache.common.protocol.MapOutputReady;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.PayloadChunk;
import org.scache.common.protocol.PinReduceInput;
import org.scache.common.protocol.PinReduceInputPart;
import org.scache.common.protocol.PutBlock;
import org.scache.common.protocol.ReduceCommitted;
import org.scache.common.protocol.RemoveApplication;
import org.scache.common.protocol.RoundsIncomplete;
import org.scache.common.protocol.ShuffleScheduled;
import org.scache.common.protocol.Status;
import org.scache.common.ShuffleKey;
import org.scache.common.protocol.UnregisterShuffle;
import org.scache.common.protocol.WorkerStats;

/**
 * Serves one connection to a worker: puts stream straight into reserved memory, reads are answered
 * from the store or fetched from the holding worker. Requests reach it authorized (the server's
 * {@code AuthorizationStage}).
 */
final class WorkerRequestHandler extends RequestDispatcher {
  /**
   * What the handler works with: where puts go and reads come from, where the master's
   * messages and the applications' requests are carried out, the counters and the stats, and how a
   * connection's shared-memory state is made.
   */
  record Parts(BlockPuts puts, BlockReader reader, MasterMessages fromMaster,
      ApplicationShuffles applications, WorkerCounters counters, boolean payloadDigestRequired,
      Supplier<Map<String, Long>> stats, Supplier<LocalAccess> localAccess) {}

  private final Supplier<Parts> partsWhenReady;
  private final java.util.Set<IncomingPut> open = new java.util.HashSet<>();
  private Parts parts;
  private IncomingPut receiving;
  private LocalAccess local;

  /** @param partsWhenReady the parts, or null while the worker is still starting */
  WorkerRequestHandler(Supplier<Parts> partsWhenReady) {
    this.partsWhenReady = partsWhenReady;
  }

  private Parts parts() {
    if (parts == null) {
      parts = partsWhenReady.get();
      if (parts == null) {
        throw new ScacheException(Status.NOT_READY, "the worker is still starting");
      }
    }
    return parts;
  }

  @Override
  protected void onRequest(ChannelHandlerContext ctx, InboundFrame frame) {
    long id = frame.requestId();
    Parts w = parts();
    Message message = frame.message();
    switch (message.type()) {
      case PUT_BLOCK -> startPut(ctx, frame, (PutBlock) message);
      case GET_BLOCK -> {
        GetBlock m = (GetBlock) message;
        w.reader().readBlock(m.blockId()).whenComplete((data, e) -> {
          if (e != null) {
            replyError(ctx, id, e);
          } else {
            reply(ctx, id, new BlockData(m.blockId()), data);
          }
        });
      }
      case GET_REDUCE_INPUT -> {
        GetReduceInput m = (GetReduceInput) message;
        w.reader().readReduceInput(new ShuffleKey(m.appId(), m.shuffleId()), m.reduceId(), m.waitMillis())
            .whenComplete((input, e) -> {
              if (e != null) {
                replyError(ctx, id, e);
              } else {
                replyBlocks(ctx, id, input.numMaps(), input.finishedMaps(), input.blocks());
              }
            });
      }
      case PIN_REDUCE_INPUT -> {
        PinReduceInput m = (PinReduceInput) message;
        localAccess().answerPinned(ctx, id, () -> w.reader().readReduceInput(
            new ShuffleKey(m.appId(), m.shuffleId()), m.reduceId(), m.waitMillis()));
      }
      case PIN_REDUCE_INPUT_PART -> {
        PinReduceInputPart m = (PinReduceInputPart) message;
        localAccess().answerPinned(ctx, id, () -> w.reader().readReduceInputPart(
            new ShuffleKey(m.appId(), m.shuffleId()), m.reduceId(), m.waitMillis(), Set.copyOf(m.haveMaps())));
      }
      case FETCH_BLOCKS -> w.reader().serveFetch(((FetchBlocks) message).blockIds()).whenComplete((b, e) -> {
        if (e != null) {
          replyError(ctx, id, e);
        } else {
          replyBlocks(ctx, id, 0, 0, b);
        }
      });
      case MAP_FINISHED -> {
        MapFinished m = (MapFinished) message;
        answer(ctx, id, w.applications().mapFinished(new ShuffleKey(m.appId(), m.shuffleId()), m.mapId(),
            m.attempt()));
      }
      case UNREGISTER_SHUFFLE -> {
        UnregisterShuffle m = (UnregisterShuffle) message;
        acknowledge(ctx, id, () -> w.applications().removeShuffle(new ShuffleKey(m.appId(), m.shuffleId())));
      }
      case REMOVE_APPLICATION -> acknowledge(ctx, id, () ->
          w.applications().removeApplication(((RemoveApplication) message).appId()));
      case REDUCE_COMMITTED -> {
        ReduceCommitted m = (ReduceCommitted) message;
        acknowledge(ctx, id, () -> w.applications().reduceCommitted(new ShuffleKey(m.appId(), m.shuffleId()),
            m.reduceId()));
      }
      case SHUFFLE_SCHEDULED -> acknowledge(ctx, id, () ->
          w.fromMaster().shuffleScheduled((ShuffleScheduled) message));
      case ROUNDS_INCOMPLETE -> acknowledge(ctx, id, () ->
          w.fromMaster().roundsIncomplete((RoundsIncomplete) message));
      case MAP_OUTPUT_READY -> acknowledge(ctx, id, () ->
          w.fromMaster().mapOutputReady((MapOutputReady) message));
      case GET_WORKER_STATS -> reply(ctx, id, new WorkerStats(w.stats().get()));
      case OPEN_LOCAL, LEASE_MEMORY, COMMIT_LEASED, RELEASE_LEASE, PIN_BLOCK, UNPIN ->
          localAccess().onRequest(ctx, frame);
      default -> throw new ScacheException(Status.UNKNOWN_MESSAGE_TYPE, message.type() + " is not served by a worker");
    }
  }

  /** Runs {@code action} and answers ACK, or the error it throws. */
  private static void acknowledge(ChannelHandlerContext ctx, long id, Runnable action) {
    action.run();
    reply(ctx, id, new Ack());
  }

  /** The shared-memory state of this connection, made on its first shared-memory request. */
  private LocalAccess localAccess() {
    if (local == null) {
      local = parts().localAccess().get();
    }
    return local;
  }

  /** Answers ACK when {@code work} completes, or the error it fails with. */
  private static void answer(ChannelHandlerContext ctx, long id, CompletableFuture<?> work) {
    work.whenComplete((v, e) -> {
      if (e != null) {
        replyError(ctx, id, e);
      } else {
        reply(ctx, id, new Ack());
      }
    });
  }

  private static void replyBlocks(ChannelHandlerContext ctx, long id, int numMaps, int finishedMaps, BlockBatch b) {
    reply(ctx, id, new BlocksData(numMaps, finishedMaps, b.sizes()), b.payload());
  }

  // ---------------------------------------------------------------- puts

  private void startPut(ChannelHandlerContext ctx, InboundFrame frame, PutBlock m) {
    IncomingPut p = new IncomingPut(frame.requestId(), m, frame.payloadLength(), frame.signedPayloadDigest());
    open.add(p);
    receiving = frame.payloadLength() > 0 ? p : null;
    p.lastSeen = frame.payloadLength() == 0;
    // memory is taken at once when there is room; making room (spilling) runs off the event loop
    CompletableFuture<PendingPut> sink = parts.puts().beginAsync(m.blockId(), p.expected);
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
        parts.counters().busyPuts.increment();
      } else {
        parts.counters().refusedPuts.increment();
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

  @Override
  protected void onPayload(ChannelHandlerContext ctx, PayloadChunk chunk) {
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
      finishPut(ctx, p);
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

  private void finishPut(ChannelHandlerContext ctx, IncomingPut p) {
    if (p.failure == null && p.expected > 0) {
      if (p.digest != null && !p.digest.matches(p.signedDigest)) {
        parts.counters().authFailures.increment();
        p.failure = new ScacheException(Status.AUTH_FAILED, "the payload of PUT_BLOCK " + p.message.blockId()
            + " does not match the digest its proof covers");
      } else if (p.digest == null && parts.payloadDigestRequired()) {
        parts.counters().authFailures.increment();
        p.failure = new ScacheException(Status.AUTH_FAILED, "PUT_BLOCK " + p.message.blockId() + " carries no payload "
            + "digest, which this worker requires (scache.security.payload.digest.enabled)");
      }
    }
    if (p.failure != null) {
      if (p.sink != null) {
        p.sink.abort();
      }
      replyError(ctx, p.requestId, p.failure.status(), p.failure.detail());
      return;
    }
    try {
      parts.puts().commit(p.sink);
      reply(ctx, p.requestId, new Ack());
    } catch (ScacheException e) {
      replyError(ctx, p.requestId, e.status(), e.detail());
    }
  }

  @Override
  protected void onBadFrame(ChannelHandlerContext ctx, DecodeFailure failure) {
    if (failure.fatal()) {
      abortPuts();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    abortPuts();
    if (local != null) {
      local.close();
    }
    super.channelInactive(ctx);
  }

  private void abortPuts() {
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
