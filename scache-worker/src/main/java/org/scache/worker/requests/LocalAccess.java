package org.scache.worker.requests;

import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.scache.common.ScacheException;
import org.scache.common.auth.RequestAuthorizer;
import org.scache.common.network.RequestDispatcher;
import org.scache.common.protocol.Ack;
import org.scache.common.protocol.CommitLeased;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.LeaseMemory;
import org.scache.common.protocol.LocalSegment;
import org.scache.common.protocol.LocalSegments;
import org.scache.common.protocol.MemoryLease;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.PinBlock;
import org.scache.common.protocol.PinnedBlock;
import org.scache.common.protocol.PinnedReduceInput;
import org.scache.common.protocol.ReducePart;
import org.scache.common.protocol.ReleaseLease;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.Unpin;
import org.scache.worker.local.LeasedRange;
import org.scache.worker.local.LocalLeases;
import org.scache.worker.local.PinnedInput;
import org.scache.worker.local.PinnedRange;
import org.scache.worker.store.MemoryPool;

/**
 * Serves the shared-memory requests of one connection from a client on this host, authorized by the
 * server for the application they act for; {@code RELEASE_LEASE} and {@code UNPIN}, which give back
 * what a lease's or pin's own application holds, are checked here for that application. Each is
 * carried out by the connection's {@link LocalLeases} on its event loop; this class turns the messages
 * into its calls and its answers into messages.
 */
public final class LocalAccess {
  private final RequestAuthorizer authorizer;
  private final LocalLeases leases;
  private final Duration leaseTimeout;
  private ScheduledFuture<?> expiry;

  /** @param leaseTimeout how long a lease may go without a commit before the worker takes it back */
  public LocalAccess(RequestAuthorizer authorizer, LocalLeases leases, Duration leaseTimeout) {
    this.authorizer = authorizer;
    this.leases = leases;
    this.leaseTimeout = leaseTimeout;
  }

  /** Takes back this connection's leases idle past the worker's lease timeout, on {@code ctx}'s event loop. */
  private void expireLeasesOn(ChannelHandlerContext ctx) {
    if (expiry != null) {
      return;
    }
    long timeoutNanos = leaseTimeout.toNanos();
    long period = Math.max(1, timeoutNanos / 4);
    expiry = ctx.executor().scheduleAtFixedRate(() -> leases.expireIdle(timeoutNanos), period, period,
        TimeUnit.NANOSECONDS);
  }

  /** Answers one of the shared-memory requests. */
  void onRequest(ChannelHandlerContext ctx, InboundFrame frame) {
    Message message = frame.message();
    switch (message.type()) {
      case OPEN_LOCAL -> run(ctx, frame, () -> segments(leases.open()));
      case LEASE_MEMORY -> {
        expireLeasesOn(ctx);
        LeaseMemory m = (LeaseMemory) message;
        run(ctx, frame, () -> {
          LeasedRange l = leases.lease(m.appId(), m.bytes());
          return new MemoryLease(l.leaseId(), l.segment(), l.offset(), l.length());
        });
      }
      case COMMIT_LEASED -> {
        CommitLeased m = (CommitLeased) message;
        run(ctx, frame, () -> {
          leases.commit(m.blockId(), m.leaseId(), m.offset(), m.length());
          return new Ack();
        });
      }
      case RELEASE_LEASE -> {
        ReleaseLease m = (ReleaseLease) message;
        whenAuthorized(ctx, frame.requestId(), givingBack(frame, leases.applicationOfLease(m.leaseId())), () -> {
          leases.release(m.leaseId());
          return new Ack();
        });
      }
      case PIN_BLOCK -> {
        PinBlock m = (PinBlock) message;
        run(ctx, frame, () -> pinned(leases.pin(m.blockId())));
      }
      case UNPIN -> {
        Unpin m = (Unpin) message;
        CompletableFuture<Void> auth = CompletableFuture.completedFuture(null);
        for (String app : leases.applicationsOfPins(m.pinIds())) {
          auth = auth.thenCompose(v -> givingBack(frame, app));
        }
        whenAuthorized(ctx, frame.requestId(), auth, () -> {
          leases.unpin(m.pinIds());
          return new Ack();
        });
      }
      default -> throw new IllegalArgumentException(message.type() + " is not a shared-memory request");
    }
  }

  private static LocalSegments segments(List<MemoryPool.SegmentFile> files) {
    List<LocalSegment> segments = new ArrayList<>(files.size());
    for (MemoryPool.SegmentFile f : files) {
      segments.add(new LocalSegment(f.index(), f.path().toString(), f.size()));
    }
    return new LocalSegments(segments);
  }

  private static PinnedBlock pinned(PinnedRange p) {
    return new PinnedBlock(p.pinId(), p.segment(), p.offset(), p.length());
  }

  private static PinnedReduceInput pinned(PinnedInput input) {
    List<ReducePart> parts = new ArrayList<>(input.parts().size());
    for (PinnedInput.Part p : input.parts()) {
      parts.add(new ReducePart(p.blockId(), p.size(), p.pin().map(LocalAccess::pinned)));
    }
    return new PinnedReduceInput(input.numMaps(), input.finishedMaps(), parts);
  }

  /**
   * Answers {@code PIN_REDUCE_INPUT} once {@code read} has the reduce's input, on the connection's event
   * loop: the blocks held in shared memory pinned for this connection, the others in the payload.
   */
  void answerPinned(ChannelHandlerContext ctx, long requestId,
      Supplier<CompletableFuture<BlockReader.ReduceInput>> reading) {
    leases.requireOpened();
    reading.get().whenCompleteAsync((input, e) -> {
      if (e != null) {
        RequestDispatcher.replyError(ctx, requestId, e);
        return;
      }
      if (leases.isClosed()) {
        input.blocks().payload().release();
        RequestDispatcher.replyError(ctx, requestId, Status.CONNECTION_FAILED, "the connection is closed");
        return;
      }
      try {
        PinnedInput pinned = leases.pinReduceInput(input.numMaps(), input.finishedMaps(), input.blocks());
        RequestDispatcher.reply(ctx, requestId, pinned(pinned), pinned.payload());
      } catch (RuntimeException x) {
        RequestDispatcher.replyError(ctx, requestId, x);
      }
    }, ctx.executor());
  }

  /** Gives back what the connection holds; called when it closes. */
  void close() {
    if (expiry != null) {
      expiry.cancel(false);
    }
    leases.close();
  }

  /**
   * Authorises giving back memory this connection holds for {@code appId}: signed by that
   * application, which may have been removed meanwhile (its secret is then unknown here).
   */
  private CompletableFuture<Void> givingBack(InboundFrame frame, String appId) {
    return authorizer.forApplication(frame, appId).exceptionally(e -> {
      ScacheException se = ScacheException.from(e);
      if (se.status() != Status.UNKNOWN_APPLICATION) {
        throw se;
      }
      return null;
    });
  }

  /** Runs a request the server has authorized already (its type names the application it acts for). */
  private void run(ChannelHandlerContext ctx, InboundFrame frame, Supplier<Message> action) {
    whenAuthorized(ctx, frame.requestId(), CompletableFuture.completedFuture(null), action);
  }

  /** Runs {@code action} on the event loop once {@code auth} succeeded, and answers with its result. */
  private void whenAuthorized(ChannelHandlerContext ctx, long requestId, CompletableFuture<Void> auth,
      Supplier<Message> action) {
    if (auth.isDone() && ctx.executor().inEventLoop()) {
      answer(ctx, requestId, auth, action);
    } else {
      auth.whenCompleteAsync((v, e) -> answer(ctx, requestId, auth, action), ctx.executor());
    }
  }

  private void answer(ChannelHandlerContext ctx, long requestId, CompletableFuture<Void> auth,
      Supplier<Message> action) {
    try {
      auth.join();
      if (leases.isClosed()) {
        throw new ScacheException(Status.CONNECTION_FAILED, "the connection is closed");
      }
      RequestDispatcher.reply(ctx, requestId, action.get());
    } catch (RuntimeException e) {
      RequestDispatcher.replyError(ctx, requestId, e);
    }
  }
}
