package org.scache.spark;

import java.io.BufferedOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.apache.spark.shuffle.api.ShuffleMapOutputWriter;
import org.apache.spark.shuffle.api.ShufflePartitionWriter;
import org.apache.spark.shuffle.api.metadata.MapOutputCommitMessage;
import org.scache.client.BlockBuffers;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;

/**
 * Where a map task writes its partitions: each partition's bytes (serialized and compressed by
 * Spark's own streams) are collected in memory, in chunks, and put as one SCache block (the chunks
 * copied one after the other into the worker's memory) when the writer closes the partition, while
 * the task goes on. The memory the buffers take is acquired from
 * {@link PartitionMemory}; a buffer that cannot get more goes on in a local file, and is read back
 * whole when it is put. While the task writes, at most {@code maxPendingBytes} of puts are outstanding;
 * {@link #commitAllPartitions} does not wait for the last ones, {@link #whenStored} tells when they are stored.
 */
final class PartitionBlockWriter implements ShuffleMapOutputWriter {
  private final ScacheClient client;
  private final String appId;
  private final int shuffleId;
  private final int mapIndex;
  private final int attempt;
  private final long[] lengths;
  private final long maxPendingBytes;
  private final PartitionMemory memory;
  private final BlockBuffers chunkPool;
  private final Supplier<File> tempFiles;
  private final Deque<Pending> pending = new ArrayDeque<>();
  private final List<PartitionBuffer> buffers = new ArrayList<>();
  private long pendingBytes;
  private long putNanos;
  private long spilledBytes;
  private CompletableFuture<Void> stored = CompletableFuture.completedFuture(null);

  private record Pending(CompletableFuture<Void> put, long bytes, long reserved) {}

  /** The most bytes one block may hold. */
  private static final long MAX_BLOCK = Integer.MAX_VALUE - 16;
  /** A partition's first chunk; each next one is twice the last, up to {@link #LARGEST_CHUNK}. */
  private static final int SMALLEST_CHUNK = 32 * 1024;
  private static final int LARGEST_CHUNK = 256 * 1024;

  /** A writer whose buffers stay in memory, whatever their size. */
  PartitionBlockWriter(ScacheClient client, String appId, int shuffleId, int mapIndex, int attempt, int numPartitions,
      long maxPendingBytes, BlockBuffers chunkPool) {
    this(client, appId, shuffleId, mapIndex, attempt, numPartitions, maxPendingBytes, PartitionMemory.unlimited(),
        chunkPool, () -> {
          throw new IllegalStateException("unlimited buffers need no file");
        });
  }

  PartitionBlockWriter(ScacheClient client, String appId, int shuffleId, int mapIndex, int attempt, int numPartitions,
      long maxPendingBytes, PartitionMemory memory, BlockBuffers chunkPool, Supplier<File> tempFiles) {
    this.memory = memory;
    this.chunkPool = chunkPool;
    this.tempFiles = tempFiles;
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
          buffers.add(stream);
        }
        return stream;
      }

      @Override
      public long getNumBytesWritten() {
        return stream == null ? 0 : stream.size();
      }
    };
  }

  /**
   * The lengths of the blocks put. It does not wait for the worker to answer the puts still in flight (their bytes
   * are in its memory, or on their way over the socket): {@link #whenStored} completes once it has; a put that
   * has already failed fails the commit. The task's memory for the partitions is given back here, and each
   * partition's chunks go back to the executor's pool once its put is answered.
   */
  @Override
  public MapOutputCommitMessage commitAllPartitions(long[] checksums) throws IOException {
    List<CompletableFuture<Void>> puts = new ArrayList<>(pending.size());
    for (Pending p : pending) {
      if (p.put().isCompletedExceptionally()) {
        awaitFailed(p);
      }
      puts.add(p.put());
      memory.release(p.reserved());
    }
    pending.clear();
    pendingBytes = 0;
    stored = CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).exceptionally(e -> {
      throw new CompletionException(notStored(e));
    });
    return MapOutputCommitMessage.of(lengths.clone());
  }

  /** Completes once every block committed is stored; fails naming the map if one could not be. */
  CompletableFuture<Void> whenStored() {
    return stored;
  }

  private void awaitFailed(Pending failed) throws IOException {
    try {
      failed.put().join();
    } catch (CompletionException e) {
      throw notStored(e);
    }
  }

  /** The failure of a put of this map, as the task reports it. */
  private IOException notStored(Throwable e) {
    return new IOException("SCache did not store a block of map " + mapIndex + " of shuffle " + shuffleId + ": "
        + ScacheException.from(e).getMessage(), e instanceof CompletionException && e.getCause() != null
        ? e.getCause() : e);
  }

  @Override
  public void abort(Throwable error) {
    // blocks already put stay with this attempt, which never becomes the map's final one
    pending.forEach(p -> p.put().cancel(false));
    pending.clear();
    buffers.forEach(PartitionBuffer::discard);
  }

  /** Nanoseconds spent waiting for puts, for the task's shuffle write time. */
  long putNanos() {
    return putNanos;
  }

  /** Bytes that went to local files because the task's memory was taken. */
  long spilledBytes() {
    return spilledBytes;
  }

  /**
   * Puts {@code parts} as the partition's block; {@code chunks}, which they lie in, go back to the
   * pool once the put is over (not when the task stops waiting for it: an aborted task cancels only its wait).
   */
  private void put(int partition, List<ByteBuffer> parts, List<ByteBuffer> chunks, long length, long reserved)
      throws IOException {
    lengths[partition] = length;
    if (length == 0) {
      memory.release(reserved);
      chunkPool.giveBack(chunks);
      return;
    }
    if (length > MAX_BLOCK) {
      memory.release(reserved);
      chunkPool.giveBack(chunks);
      throw tooLarge(partition, length);
    }
    BlockId id = new BlockId(appId, shuffleId, mapIndex, attempt, partition);
    CompletableFuture<Void> stored = client.putBlockAsync(id, parts);
    CompletableFuture<Void> wait = stored.whenComplete((v, e) -> chunkPool.giveBack(chunks));
    pending.add(new Pending(wait, length, reserved));
    pendingBytes += length;
    while (pendingBytes > maxPendingBytes && pending.size() > 1) {
      awaitOldest();
    }
  }

  private IOException tooLarge(int partition, long length) {
    return new IOException("partition " + partition + " of map " + mapIndex + " is " + length
        + " bytes, more than one SCache block can hold");
  }

  private void awaitOldest() throws IOException {
    Pending oldest = pending.poll();
    long start = System.nanoTime();
    try {
      oldest.put().join();
    } catch (CompletionException e) {
      throw notStored(e);
    } finally {
      putNanos += System.nanoTime() - start;
      pendingBytes -= oldest.bytes();
      memory.release(oldest.reserved());
    }
  }

  /**
   * One partition's bytes, put as a block when the task closes the stream: in memory, in chunks from
   * the executor's {@link BlockBuffers} (direct memory, reused) that grow to {@link #LARGEST_CHUNK}
   * (none is copied as the partition grows, and a chunk from the heap is never large enough to be a
   * humongous allocation of a small heap), while the task's memory allows; then in a local file.
   */
  private final class PartitionBuffer extends OutputStream {
    private final int partition;
    private final List<ByteBuffer> chunks = new ArrayList<>();
    private ByteBuffer chunk;
    private long inMemory;
    private long reserved;
    private File file;
    private OutputStream fileOut;
    private long fileBytes;
    private boolean closed;

    PartitionBuffer(int partition) {
      this.partition = partition;
    }

    long size() {
      return inMemory + fileBytes;
    }

    @Override
    public void write(int b) throws IOException {
      if (hasRoom()) {
        chunk.put((byte) b);
        inMemory++;
      } else {
        write(new byte[] {(byte) b}, 0, 1);
      }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      while (len > 0 && hasRoom()) {
        int n = Math.min(len, chunk.remaining());
        chunk.put(b, off, n);
        inMemory += n;
        off += n;
        len -= n;
      }
      if (len == 0) {
        return;
      }
      if (fileOut == null) {
        file = tempFiles.get();
        fileOut = new BufferedOutputStream(new FileOutputStream(file), 64 * 1024);
      }
      fileOut.write(b, off, len);
      fileBytes += len;
      spilledBytes += len;
    }

    /** Whether the next byte goes to memory: room in the last chunk, or a new chunk granted. */
    private boolean hasRoom() {
      return fileOut == null && (chunk != null && chunk.hasRemaining() || grow());
    }

    /** Starts a new chunk, twice the last one's size up to the largest, if the task's memory allows. */
    private boolean grow() {
      int size = chunk == null ? SMALLEST_CHUNK : Math.min(LARGEST_CHUNK, 2 * chunk.capacity());
      if (!memory.reserve(size)) {
        return false;
      }
      reserved += size;
      chunk = chunkPool.take(size);
      chunks.add(chunk);
      return true;
    }

    /** The chunks' bytes, in order. */
    private List<ByteBuffer> inMemoryParts() {
      List<ByteBuffer> parts = new ArrayList<>(chunks.size() + 1);
      for (ByteBuffer c : chunks) {
        parts.add(c.duplicate().flip());
      }
      return parts;
    }

    /** Drops what the buffer holds, its file included: the map attempt failed. */
    void discard() {
      if (closed) {
        return;
      }
      closed = true;
      chunkPool.giveBack(chunks);
      chunks.clear();
      chunk = null;
      if (fileOut != null) {
        try {
          fileOut.close();
          Files.deleteIfExists(file.toPath());
        } catch (IOException e) {
          // Spark removes its local directories when the executor stops
        }
      }
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      List<ByteBuffer> parts = inMemoryParts();
      if (fileOut == null) {
        put(partition, parts, chunks, inMemory, reserved);
        return;
      }
      fileOut.close();
      try {
        if (size() > MAX_BLOCK) {
          memory.release(reserved);
          chunkPool.giveBack(chunks);
          throw tooLarge(partition, size());
        }
        byte[] spilled = new byte[(int) fileBytes];
        try (InputStream in = Files.newInputStream(file.toPath())) {
          in.readNBytes(spilled, 0, spilled.length);
        }
        parts.add(ByteBuffer.wrap(spilled));
        put(partition, parts, chunks, size(), reserved);
      } finally {
        Files.deleteIfExists(file.toPath());
      }
    }
  }
}
