package org.scache.worker.requests;

import io.netty.channel.ChannelHandlerContext;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.network.RequestDispatcher;
import org.scache.common.protocol.Ack;
import org.scache.common.protocol.BlockData;
import org.scache.common.protocol.BlocksData;
import org.scache.common.protocol.DecodeFailure;
import org.scache.common.protocol.FetchBlocks;
import org.scache.common.protocol.GetBlock;
import org.scache.common.protocol.GetReduceInput;
import org.scache.common.protocol.HoldCopies;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.MapFinished;
import org.scache.common.protocol.MapOutputReady;
import org.scache.common.protocol.MapOutputsReady;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.PayloadChunk;
import org.scache.common.protocol.PinReduceInput;
import org.scache.common.protocol.PinReduceInputPart;
import org.scache.common.protocol.PutBlock;
import org.scache.common.protocol.ReadInPlace;
import org.scache.common.protocol.ReduceCommitted;
import org.scache.common.protocol.RemoveApplication;
import org.scache.common.protocol.RoundsIncomplete;
import org.scache.common.protocol.ShuffleScheduled;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.UnregisterShuffle;
import org.scache.common.protocol.WorkerStats;
import org.scache.worker.cluster.BlockBatch;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.master.MasterMessages;
import org.scache.worker.store.BlockPuts;

/**
 * Serves one connection to a worker: turns each request into a call to the part that carries it out
 * and its result into the answer. Puts are reassembled by the connection's {@link StreamedPuts},
 * shared-memory requests served by its {@link LocalAccess}; reads are answered from the store or
 * fetched from the holding worker, their data written as the peer reads it ({@link PacedReplies}).
 * Requests reach it authorized (the server's {@code AuthorizationStage}).
 */
public final class WorkerRequestHandler extends RequestDispatcher {
  /**
   * What the handler works with: where puts go and reads come from, where the master's
   * messages and the applications' requests are carried out, the counters and the stats, and how a
   * connection's shared-memory state is made.
   */
  public record Parts(BlockPuts puts, BlockReader reader, MasterMessages fromMaster,
      ApplicationShuffles applications, WorkerCounters counters, boolean payloadDigestRequired,
      Supplier<Map<String, Long>> stats, Supplier<LocalAccess> localAccess, InFlightPuts inFlight) {}

  private final Parts parts;
  private final ReadPauses reads = new ReadPauses();
  private final StreamedPuts puts;
  private final PacedReplies replies = new PacedReplies(reads);
  private LocalAccess local;

  public WorkerRequestHandler(Parts parts) {
    this.parts = parts;
    this.puts = new StreamedPuts(parts.puts(), parts.inFlight(), parts.counters(), parts.payloadDigestRequired(),
        reads);
    reads.onResume(puts::readsResumed);
  }

  @Override
  protected void onRequest(ChannelHandlerContext ctx, InboundFrame frame) {
    long id = frame.requestId();
    Parts w = parts;
    Message message = frame.message();
    switch (message.type()) {
      case PUT_BLOCK -> puts.start(ctx, frame, (PutBlock) message);
      case GET_BLOCK -> {
        GetBlock m = (GetBlock) message;
        w.reader().readBlock(m.blockId()).whenComplete((data, e) -> {
          if (e != null) {
            replyError(ctx, id, e);
          } else {
            replies.send(ctx, id, new BlockData(m.blockId()), data);
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
            new ShuffleKey(m.appId(), m.shuffleId()), m.reduceId(), m.waitMillis(), Set.copyOf(m.haveMaps()),
            m.finalAttempts()));
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
      case SHUFFLE_SCHEDULED -> {
        ShuffleScheduled m = (ShuffleScheduled) message;
        acknowledge(ctx, id, () -> w.fromMaster().shuffleScheduled(m.placement(), m.submissionTimeMillis(),
            m.moves()));
      }
      case ROUNDS_INCOMPLETE -> {
        RoundsIncomplete m = (RoundsIncomplete) message;
        acknowledge(ctx, id, () -> w.fromMaster().roundsIncomplete(new ShuffleKey(m.appId(), m.shuffleId()),
            m.rounds()));
      }
      case READ_IN_PLACE -> {
        ReadInPlace m = (ReadInPlace) message;
        acknowledge(ctx, id, () -> w.fromMaster().readInPlace(new ShuffleKey(m.appId(), m.shuffleId())));
      }
      case HOLD_COPIES -> {
        HoldCopies m = (HoldCopies) message;
        acknowledge(ctx, id, () -> w.fromMaster().holdCopies(new ShuffleKey(m.appId(), m.shuffleId()), m.held()));
      }
      case MAP_OUTPUT_READY -> {
        MapOutputReady m = (MapOutputReady) message;
        acknowledge(ctx, id, () -> w.fromMaster().mapOutputReady(new ShuffleKey(m.appId(), m.shuffleId()),
            m.mapId(), m.attempt(), m.holder(), m.blocks()));
      }
      case MAP_OUTPUTS_READY -> {
        MapOutputsReady m = (MapOutputsReady) message;
        acknowledge(ctx, id, () -> m.notices().forEach(n -> w.fromMaster().mapOutputReady(
            new ShuffleKey(n.appId(), n.shuffleId()), n.mapId(), n.attempt(), n.holder(), n.blocks())));
      }
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
      local = parts.localAccess().get();
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

  private void replyBlocks(ChannelHandlerContext ctx, long id, int numMaps, int finishedMaps, BlockBatch b) {
    replies.send(ctx, id, new BlocksData(numMaps, finishedMaps, b.sizes()), b.payload());
  }

  @Override
  protected void onPayload(ChannelHandlerContext ctx, PayloadChunk chunk) {
    puts.onPayload(ctx, chunk);
  }

  @Override
  protected void onBadFrame(ChannelHandlerContext ctx, DecodeFailure failure) {
    if (failure.fatal()) {
      puts.abortAll();
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
    replies.writabilityChanged(ctx);
    super.channelWritabilityChanged(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    puts.abortAll();
    replies.close();
    if (local != null) {
      local.close();
    }
    super.channelInactive(ctx);
  }
}
