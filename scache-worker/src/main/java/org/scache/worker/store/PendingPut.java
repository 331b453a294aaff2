package org.scache.worker.store;

import io.netty.buffer.ByteBuf;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;

/**
 * A block being received: memory is taken from the pool when the put starts, bytes are copied in
 * as they arrive, and the block becomes visible only on {@link BlockPuts#commit}. A block the
 * spill policy would put out of memory first is received into a buffer outside the reserve instead,
 * and written to disk on commit ({@link #toDisk()}).
 */
public final class PendingPut {
  private final BlockId id;
  private final ByteBuf target;
  private final boolean toDisk;
  private boolean done;
  /** Gives back the block's place in the quota, counted while the put is in flight. */
  private Runnable quotaHold = () -> { };

  public PendingPut(BlockId id, ByteBuf target) {
    this(id, target, false);
  }

  PendingPut(BlockId id, ByteBuf target, boolean toDisk) {
    this.id = id;
    this.target = target;
    this.toDisk = toDisk;
  }

  /** The put holds a place in the block quota until it is taken or aborted; {@code release} gives it back. */
  PendingPut holdingQuota(Runnable release) {
    this.quotaHold = release;
    return this;
  }

  private void releaseQuota() {
    Runnable r = quotaHold;
    quotaHold = () -> { };
    r.run();
  }

  /** Whether the block goes to disk on commit instead of into the reserve. */
  boolean toDisk() {
    return toDisk;
  }

  BlockId id() {
    return id;
  }

  long expectedBytes() {
    return target.capacity();
  }

  /** Appends {@code chunk}'s readable bytes; the caller keeps ownership of {@code chunk}. */
  public void write(ByteBuf chunk) {
    if (chunk.readableBytes() > target.writableBytes()) {
      throw new ScacheException(Status.MALFORMED_MESSAGE, "more bytes than announced for " + id);
    }
    target.writeBytes(chunk, chunk.readerIndex(), chunk.readableBytes());
  }

  boolean isComplete() {
    return target.writerIndex() == target.capacity();
  }

  /** Hands the filled buffer over; the put is finished. */
  ByteBuf take() {
    done = true;
    releaseQuota();
    return target;
  }

  /** Gives the memory back; safe to call more than once and after {@link #take()}. */
  public void abort() {
    if (!done) {
      done = true;
      releaseQuota();
      target.release();
    }
  }
}
