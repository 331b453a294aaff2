package org.scache.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.scache.common.BlockId;
import org.scache.common.DaemonThreads;
import org.scache.common.ScacheException;
import org.scache.common.auth.Credentials;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.network.ClientConnection;
import org.scache.common.network.ClientConnections;
import org.scache.common.network.Reply;
import org.scache.common.protocol.CommitLeased;
import org.scache.common.protocol.LeaseMemory;
import org.scache.common.protocol.LocalSegments;
import org.scache.common.protocol.MemoryLease;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.MessageType;
import org.scache.common.protocol.OpenLocal;
import org.scache.common.protocol.PinBlock;
import org.scache.common.protocol.PinReduceInput;
import org.scache.common.protocol.PinReduceInputPart;
import org.scache.common.protocol.PinnedBlock;
import org.scache.common.protocol.ReleaseLease;
import org.scache.common.protocol.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves blocks between this process and the worker on its host through the worker's shared
 * memory: a put copies the block into memory the worker leased to this client and commits it; a
 * get pins the block and copies it out; a reduce input's blocks are pinned and read as
 * {@link PinnedReduceInputs} says. When the worker does not share its memory or its files
 * cannot be mapped here (another host, another user), this is found out once and every call
 * takes the socket path it is given; a shared-memory call that fails for any reason does too.
 */
final class SharedMemoryPath implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SharedMemoryPath.class);
  private static final int ALIGNMENT = 64;
  /** Bytes of a reduce input's answer copied where the answer arrives; larger copies go to a copier thread. */
  static final long INLINE_COPY_BYTES = 64 * 1024;

  private final ClientConnections connections;
  private final String workerAddress;
  private final String appId;
  private final Optional<Credentials> credentials;
  private final Duration timeout;
  private final long leaseBytes;
  private final Duration leaseIdleTimeout;
  private final AtomicBoolean disabled = new AtomicBoolean();
  /** The reduce-input requests the worker did not know (an earlier version): those reads go over the socket. */
  private final Set<MessageType> unknownRequests = ConcurrentHashMap.newKeySet();
  /** Copies out of the worker's memory run here, off the connection's event loop, one per core. */
  private final java.util.concurrent.ExecutorService copiers = java.util.concurrent.Executors.newFixedThreadPool(
      Runtime.getRuntime().availableProcessors(), DaemonThreads.named("scache-client-copy"));

  private final MappedSegments mapped = new MappedSegments();
  private final PinnedReduceInputs pinnedInputs = new PinnedReduceInputs(mapped);
  private boolean closed;
  private ClientConnection sessionConnection;
  private CompletableFuture<WorkerSession> session;
  private Lease current;
  private CompletableFuture<Lease> pendingLease;
  private boolean idleCheckPending;

  SharedMemoryPath(ScacheConf conf, ClientConnections connections, String workerAddress, String appId,
      Credentials credentials, Duration timeout) {
    this.connections = connections;
    this.workerAddress = workerAddress;
    this.appId = appId;
    this.credentials = Optional.of(credentials);
    this.timeout = timeout;
    this.leaseBytes = Math.max(ALIGNMENT, conf.get(ScacheOptions.CLIENT_LOCAL_SHM_LEASE));
    this.leaseIdleTimeout = conf.get(ScacheOptions.CLIENT_LOCAL_SHM_LEASE_IDLE);
    if (!conf.get(ScacheOptions.CLIENT_LOCAL_SHM_ENABLED)) {
      disabled.set(true);
    }
  }

  /** Whether blocks currently go through shared memory (false once it turned out unusable). */
  boolean isUsable() {
    return !disabled.get();
  }

  // ---------------------------------------------------------------- put

  /**
   * Puts the bytes of {@code parts} (each position to limit, unchanged until the future completes), one
   * after the other, as block {@code id}.
   */
  CompletableFuture<Void> put(BlockId id, List<ByteBuffer> parts, Supplier<CompletableFuture<Void>> viaSocket) {
    long length = parts.stream().mapToLong(ByteBuffer::remaining).sum();
    if (disabled.get() || length == 0) { // an empty block has nothing to copy: it goes over the socket
      return viaSocket.get();
    }
    CompletableFuture<Void> viaShm;
    try {
      viaShm = session().thenCompose(s -> putInto(s, id, parts, length));
    } catch (RuntimeException e) {
      viaShm = CompletableFuture.failedFuture(e);
    }
    return orElse(viaShm, viaSocket, id);
  }

  private CompletableFuture<Void> putInto(WorkerSession s, BlockId id, List<ByteBuffer> parts, long length) {
    return slot(s, align(length)).thenCompose(slot -> {
      Lease lease = slot.lease;
      try {
        long at = slot.offset;
        for (ByteBuffer part : parts) {
          copyIn(s, lease.segment, at, part);
          at += part.remaining();
        }
      } catch (RuntimeException e) {
        finished(lease);
        throw e;
      }
      return lease.connection.call(new CommitLeased(id, lease.id, slot.offset, length), credentials, timeout)
          .whenComplete((r, e) -> {
            if (r != null) {
              r.release();
            }
            finished(lease);
          }).thenApply(r -> null);
    });
  }

  /** Room for {@code bytes} (aligned) in the current lease, taking a new lease when it is used up. */
  private synchronized CompletableFuture<Slot> slot(WorkerSession s, long bytes) {
    if (bytes > s.leaseBytes) {
      // a block larger than a lease gets a lease of its own, given back once it is committed
      return lease(s, bytes).thenApply(l -> {
        synchronized (this) {
          Slot slot = l.take(bytes);
          retire(l);
          return slot;
        }
      });
    }
    if (current != null && current.session == s && current.fits(bytes)) {
      return CompletableFuture.completedFuture(current.take(bytes));
    }
    CompletableFuture<Lease> p = pendingLease;
    if (p == null) {
      // a lease that is answered at once (or fails at once) is installed before this method returns
      CompletableFuture<Lease> next = new CompletableFuture<>();
      p = next;
      pendingLease = next;
      lease(s, s.leaseBytes).whenComplete((l, e) -> {
        synchronized (this) {
          if (pendingLease == next) {
            pendingLease = null;
          }
          if (l != null) {
            if (current != null) {
              retire(current);
            }
            current = l;
            scheduleIdleCheck();
          }
        }
        if (e != null) {
          next.completeExceptionally(e);
        } else {
          next.complete(l);
        }
      });
    }
    return p.thenCompose(l -> slot(s, bytes));
  }

  private CompletableFuture<Lease> lease(WorkerSession s, long bytes) {
    return s.connection.call(new LeaseMemory(appId, bytes), credentials, timeout).thenApply(r -> {
      MemoryLease m = r.as(MemoryLease.class);
      if (m.segment() >= s.segments.size() || m.offset() + m.length() > s.segments.get(m.segment()).capacity()
          || m.length() < bytes) {
        throw new ScacheException(Status.MALFORMED_MESSAGE, "lease " + m + " lies outside the mapped segments");
      }
      return new Lease(s, s.connection, m.leaseId(), m.segment(), m.offset(), m.offset() + m.length());
    });
  }

  /** Checks, after the idle timeout, whether the current lease was used meanwhile; gives it back if not. */
  private void scheduleIdleCheck() {
    if (idleCheckPending || current == null) {
      return;
    }
    idleCheckPending = true;
    Lease lease = current;
    long takes = lease.takes;
    CompletableFuture.delayedExecutor(leaseIdleTimeout.toNanos(), TimeUnit.NANOSECONDS)
        .execute(() -> idleCheck(lease, takes));
  }

  private synchronized void idleCheck(Lease lease, long takesThen) {
    idleCheckPending = false;
    if (current != lease) {
      scheduleIdleCheck();
      return;
    }
    if (lease.takes == takesThen && lease.inFlight == 0) {
      retire(lease);
      current = null;
    } else {
      scheduleIdleCheck();
    }
  }

  /** A commit of {@code lease} has been answered (or failed). */
  private synchronized void finished(Lease lease) {
    lease.inFlight--;
    releaseIfDone(lease);
  }

  /** No more blocks go into {@code lease}; it is given back once its commits are answered. */
  private void retire(Lease lease) {
    lease.retired = true;
    releaseIfDone(lease);
  }

  private void releaseIfDone(Lease lease) {
    if (lease.retired && lease.inFlight == 0 && !lease.released) {
      lease.released = true;
      lease.connection.call(new ReleaseLease(lease.id), credentials, timeout).whenComplete((r, e) -> {
        if (r != null) {
          r.release();
        } else {
          LOG.debug("releasing lease {} failed: {}", lease.id, e.toString());
        }
      });
    }
  }

  private void copyIn(WorkerSession s, int segment, long offset, ByteBuffer data) {
    mapped.copyIn(s.segments, segment, offset, data);
  }

  // ---------------------------------------------------------------- get

  /** The bytes of block {@code id}, copied from the worker's memory when it holds the block. */
  CompletableFuture<ByteBuffer> get(BlockId id, Supplier<CompletableFuture<ByteBuffer>> viaSocket) {
    if (disabled.get()) {
      return viaSocket.get();
    }
    CompletableFuture<ByteBuffer> viaShm;
    try {
      viaShm = session().thenCompose(s -> s.connection.call(new PinBlock(id), credentials, timeout)
          .thenApplyAsync(r -> copyOut(s, r.as(PinnedBlock.class)), copiers));
    } catch (RuntimeException e) {
      viaShm = CompletableFuture.failedFuture(e);
    }
    return orElse(viaShm, viaSocket, id);
  }

  /**
   * The input answered in {@code r}: read where the answer arrived when it copies at most
   * {@link #INLINE_COPY_BYTES} (blocks read in place need no copy; a handoff to a copier thread would cost more
   * than the copy), else by a copier, off the connection's event loop.
   */
  private CompletableFuture<ReduceInput> readAnswer(WorkerSession s, Reply r, ReduceInputBuffers into) {
    long copies;
    try {
      copies = PinnedReduceInputs.bytesToCopy(r, into);
    } catch (RuntimeException e) { // not a reduce input: the answer was released
      return CompletableFuture.failedFuture(e);
    }
    if (copies <= INLINE_COPY_BYTES) {
      try {
        return CompletableFuture.completedFuture(pinnedInputs.read(s, r, into));
      } catch (RuntimeException e) {
        return CompletableFuture.failedFuture(e);
      }
    }
    return CompletableFuture.supplyAsync(() -> pinnedInputs.read(s, r, into), copiers);
  }

  private ByteBuffer copyOut(WorkerSession s, PinnedBlock pin) {
    try {
      if (pin.length() > Integer.MAX_VALUE - 8) {
        throw new ScacheException(Status.MALFORMED_MESSAGE, "pinned block " + pin + " is too large for an array");
      }
      byte[] out = new byte[(int) pin.length()];
      mapped.copyOut(s.segments, pin, out, 0);
      if (!s.connection.isActive()) {
        // the worker drops a connection's pins when it closes: the copy may have raced with reuse
        throw new ScacheException(Status.CONNECTION_FAILED, "the connection closed while the block was copied");
      }
      return ByteBuffer.wrap(out);
    } finally {
      s.unpin(List.of(pin.pinId()));
    }
  }

  // ---------------------------------------------------------------- reduce input

  /**
   * A reduce's input, or a part of it ({@code request} is a {@link PinReduceInput} or a
   * {@link PinReduceInputPart}): its blocks the worker holds in memory copied out of the
   * mapping, the others from the answer's payload, into buffers {@code into} gives, given back to it
   * when the reader releases the input.
   */
  CompletableFuture<ReduceInput> reduceInput(Message request, ReduceInputBuffers into, int shuffleId,
      int reduceId, Supplier<CompletableFuture<ReduceInput>> viaSocket) {
    if (disabled.get() || unknownRequests.contains(request.type())) {
      return viaSocket.get();
    }
    CompletableFuture<ReduceInput> viaShm;
    try {
      viaShm = session().thenCompose(s -> s.connection.call(request, credentials, timeout)
          .thenCompose(r -> readAnswer(s, r, into)));
    } catch (RuntimeException e) {
      viaShm = CompletableFuture.failedFuture(e);
    }
    viaShm = viaShm.whenComplete((v, e) -> {
      if (e != null && ScacheException.from(e).status() == Status.UNKNOWN_MESSAGE_TYPE) {
        unknownRequests.add(request.type()); // a worker of an earlier version
      }
    });
    // a lost block or an unknown shuffle is the answer the socket would give too
    return orElse(viaShm, viaSocket, "reduce " + reduceId + " of shuffle " + shuffleId,
        Set.of(Status.BLOCK_NOT_FOUND, Status.UNKNOWN_SHUFFLE));
  }

  // ---------------------------------------------------------------- session

  /**
   * Connects to the worker and maps its shared memory now, so that the first put or read does not wait for it:
   * completes when the session is open, or at once when shared memory is not in use; fails as opening it failed.
   */
  CompletableFuture<Void> open() {
    if (disabled.get()) {
      return connections.get(workerAddress).thenApply(c -> null);
    }
    try {
      return session().thenApply(s -> null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** The mapped segments for the current connection to the worker, opened on first use and after a reconnect. */
  private CompletableFuture<WorkerSession> session() {
    return connections.get(workerAddress).thenCompose(connection -> {
      synchronized (this) {
        requireOpen();
        if (connection == sessionConnection && session != null && !session.isCompletedExceptionally()) {
          return session;
        }
        sessionConnection = connection;
        current = null;
        pendingLease = null;
        session = open(connection);
        return session;
      }
    });
  }

  private CompletableFuture<WorkerSession> open(ClientConnection connection) {
    return connection.call(new OpenLocal(appId), credentials, timeout).handle((r, e) -> {
      if (e != null) {
        ScacheException se = ScacheException.from(e);
        if (!se.status().isTransient() && se.status() != Status.AUTH_FAILED && se.status() != Status.AUTH_REQUIRED
            && se.status() != Status.UNKNOWN_APPLICATION) {
          disable("the worker refused: " + se.getMessage());
        }
        throw se;
      }
      try {
        return map(connection, r.as(LocalSegments.class));
      } catch (IOException | RuntimeException x) {
        disable("its memory cannot be mapped here: " + x);
        throw x instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) x;
      }
    });
  }

  private WorkerSession map(ClientConnection connection, LocalSegments answer) throws IOException {
    List<MappedByteBuffer> segments = mapped.map(answer.segments());
    long largest = 0;
    for (MappedByteBuffer b : segments) {
      largest = Math.max(largest, b.capacity());
    }
    long lease = Math.max(ALIGNMENT, Math.min(leaseBytes, largest / 8) / ALIGNMENT * ALIGNMENT);
    LOG.debug("mapped {} segment(s) of worker {}; leases of {} bytes", segments.size(), workerAddress, lease);
    return new WorkerSession(connection, segments, lease, credentials, timeout);
  }

  private void disable(String why) {
    if (disabled.compareAndSet(false, true)) {
      LOG.info("blocks go to the worker at {} over its socket: shared memory is not usable ({})", workerAddress,
          why);
    }
  }

  private <T> CompletableFuture<T> orElse(CompletableFuture<T> viaShm, Supplier<CompletableFuture<T>> viaSocket,
      Object what) {
    return orElse(viaShm, viaSocket, what, Set.of());
  }

  /** {@code viaShm}'s result, or else {@code viaSocket}'s,
      unless {@code viaShm} failed with one of {@code finalStatuses}. */
  private <T> CompletableFuture<T> orElse(CompletableFuture<T> viaShm, Supplier<CompletableFuture<T>> viaSocket,
      Object what, Set<Status> finalStatuses) {
    return viaShm.handle((v, e) -> {
      if (e == null) {
        return CompletableFuture.completedFuture(v);
      }
      ScacheException se = ScacheException.from(e);
      if (finalStatuses.contains(se.status())) {
        return CompletableFuture.<T>failedFuture(se);
      }
      LOG.debug("{} goes over the socket: {}", what, se.toString());
      return viaSocket.get();
    }).thenCompose(f -> f);
  }

  private void requireOpen() {
    if (closed) {
      throw new ScacheException(Status.CONNECTION_FAILED, "the client is closed");
    }
  }

  /** Gives the current lease back and unmaps the segments once no copy is running. */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      if (current != null) {
        retire(current);
        current = null;
      }
    }
    copiers.shutdown();
    mapped.close();
  }

  static long align(long length) {
    return Math.max(ALIGNMENT, (length + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT);
  }

  // ---------------------------------------------------------------- state

  /** A leased range {@code [start, end)} of one segment, filled from {@code cursor} on; guarded by the path. */
  private static final class Lease {
    final WorkerSession session;
    final ClientConnection connection;
    final long id;
    final int segment;
    final long end;
    long cursor;
    int inFlight;
    long takes;
    boolean retired;
    boolean released;

    Lease(WorkerSession session, ClientConnection connection, long id, int segment, long start, long end) {
      this.session = session;
      this.connection = connection;
      this.id = id;
      this.segment = segment;
      this.cursor = start;
      this.end = end;
    }

    boolean fits(long bytes) {
      return !retired && end - cursor >= bytes;
    }

    Slot take(long bytes) {
      Slot s = new Slot(this, cursor);
      cursor += bytes;
      inFlight++;
      takes++;
      return s;
    }
  }

  private record Slot(Lease lease, long offset) {}
}
