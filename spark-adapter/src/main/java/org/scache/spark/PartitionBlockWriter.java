package org.scache.spark;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.spark.shuffle.api.ShuffleMapOutputWriter;
import org.apache.spark.shuffle.api.ShufflePartitionWriter;
import org.apache.spark.shuffle.api.metadata.MapOutputCommitMessage;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;

/**
 * Where Spark's sorter writes a map task's partitions: each partition's bytes (serialized and
 * compressed by Spark's own streams) are collected in memory and put as one SCache block when the
 * sorter closes the partition, while the sorter goes on with the next one. At most
 * {@code maxPendingBytes} of puts are outstanding; {@link #commitAllPartitions} waits for them all.
 */
final class PartitionBlockWriter implements ShuffleMapOutputWriter {
  private final ScacheClient client;
  private final String appId;
  private final int shuffleId;
  private final int mapIndex;
  private final int attempt;
  private final long[] lengths;
  private final long maxPendingBytes;
  private final Deque<Pending> pending = new ArrayDeque<>();
  private long pendingBytes;
  private long putNanos;

  private record Pending(CompletableFuture<Void> put, long bytes) {}

  PartitionBlockWriter(ScacheClient client, String appId, int shuffleId, int mapIndex, int attempt, int numPartitions,
      long maxPendingBytes) {
    this.client = client;
    this.appId = appId;
    this.shuffleId = shuffleId;
    this.mapIndex = mapIndex;
    this.attempt = attempt;
    this.lengths = new long[numPartitions];
    this.maxPendingBytes = maxPendingBytes;
  }

  @Override
  public ShufflePartitionWriter getPartitionWriter(int reducePartitionId) {
    return new ShufflePartitionWriter() {
      private PartitionBuffer stream;

      @Override
      public OutputStream openStream() {
        if (stream == null) {
          stream = new PartitionBuffer(reducePartitionId);
        }
        return stream;
      }

      @Override
      public long getNumBytesWritten() {
        return stream == null ? 0 : stream.size();
      }
    };
  }

  /** Waits for every partition to be stored; the lengths are those of the blocks put. */
  @Override
  public MapOutputCommitMessage commitAllPartitions(long[] checksums) throws IOException {
    while (!pending.isEmpty()) {
      awaitOldest();
    }
    return MapOutputCommitMessage.of(lengths.clone());
  }

  @Override
  public void abort(Throwable error) {
    // blocks already put stay with this attempt, which never becomes the map's final one
    pending.forEach(p -> p.put().cancel(false));
    pending.clear();
  }

  /** Nanoseconds spent waiting for puts, for the task's shuffle write time. */
  long putNanos() {
    return putNanos;
  }

  private void put(int partition, byte[] bytes, int length) throws IOException {
    lengths[partition] = length;
    if (length == 0) {
      return;
    }
    BlockId id = new BlockId(appId, shuffleId, mapIndex, attempt, partition);
    pending.add(new Pending(client.putBlockAsync(id, ByteBuffer.wrap(bytes, 0, length)), length));
    pendingBytes += length;
    while (pendingBytes > maxPendingBytes && pending.size() > 1) {
      awaitOldest();
    }
  }

  private void awaitOldest() throws IOException {
    Pending oldest = pending.poll();
    long start = System.nanoTime();
    try {
      oldest.put().join();
    } catch (CompletionException e) {
      throw new IOException("SCache did not store a block of map " + mapIndex + " of shuffle " + shuffleId + ": "
          + ScacheException.from(e).getMessage(), e.getCause());
    } finally {
      putNanos += System.nanoTime() - start;
      pendingBytes -= oldest.bytes();
    }
  }

  /** One partition's bytes, put as a block when Spark closes the stream. */
  private final class PartitionBuffer extends ByteArrayOutputStream {
    private final int partition;
    private boolean closed;

    PartitionBuffer(int partition) {
      super(64 * 1024);
      this.partition = partition;
    }

    @Override
    public void close() throws IOException {
      if (!closed) {
        closed = true;
        put(partition, buf, count);
      }
    }
  }
}
