package org.scache.benchmarks.store;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.scache.dist.Throughput;

/**
 * What the store is measured against: copying a byte array into a direct buffer (the least a put
 * or get must do), and one plain TCP stream over loopback (the least a fetch must do).
 */
final class Baselines {
  private static final int TCP_WRITE = 1 << 20;

  private Baselines() {}

  /** byte[] to direct ByteBuffer copies of {@code size} bytes, back to back. */
  static Throughput memcpy(int size, Duration warmup, Duration measured) {
    byte[] src = new byte[size];
    new SplittableRandom(size).nextBytes(src);
    ByteBuffer dst = ByteBuffer.allocateDirect(size);
    copyFor(src, dst, warmup.toNanos());
    return copyFor(src, dst, measured.toNanos());
  }

  /**
   * The same copies into a destination ring of {@code ringBytes} of shared memory mapped like the
   * worker's reserve, from a source
   * that rotates over several arrays: what a put does to the reserve, whose target is not in the
   * CPU caches.
   */
  static Throughput memcpyOutOfCache(int size, long ringBytes, Duration warmup, Duration measured) {
    byte[][] sources = new byte[8][size];
    SplittableRandom random = new SplittableRandom(size);
    for (byte[] s : sources) {
      random.nextBytes(s);
    }
    int slots = (int) Math.max(1, ringBytes / size);
    java.nio.file.Path dir = java.nio.file.Files.isWritable(java.nio.file.Path.of("/dev/shm"))
        ? java.nio.file.Path.of("/dev/shm") : java.nio.file.Path.of(System.getProperty("java.io.tmpdir"));
    java.nio.MappedByteBuffer ring;
    try {
      java.nio.file.Path file = java.nio.file.Files.createTempFile(dir, "scache-bench-", ".mem");
      try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
          java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
        ring = ch.map(java.nio.channels.FileChannel.MapMode.READ_WRITE, 0, (long) slots * size);
      } finally {
        java.nio.file.Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    try {
      ringCopies(sources, ring, slots, size, warmup.toNanos());
      return ringCopies(sources, ring, slots, size, measured.toNanos());
    } finally {
      io.netty.util.internal.PlatformDependent.freeDirectBuffer(ring);
    }
  }

  private static Throughput ringCopies(byte[][] sources, ByteBuffer ring, int slots, int size, long nanos) {
    long start = System.nanoTime();
    long end = start + nanos;
    long copies = 0;
    long now;
    do {
      int batch = Math.max(1, (1 << 20) / size);
      for (int i = 0; i < batch; i++) {
        int slot = (int) (copies++ % slots);
        ring.clear().position(slot * size);
        ring.put(sources[slot % sources.length]);
      }
      now = System.nanoTime();
    } while (now < end);
    return new Throughput(copies * size, copies, now - start);
  }

  private static Throughput copyFor(byte[] src, ByteBuffer dst, long nanos) {
    long start = System.nanoTime();
    long end = start + nanos;
    long copies = 0;
    long now;
    do {
      // a batch between clock reads, so that reading the clock does not dominate small copies
      int batch = Math.max(1, (1 << 20) / src.length);
      for (int i = 0; i < batch; i++) {
        dst.clear();
        dst.put(src);
      }
      copies += batch;
      now = System.nanoTime();
    } while (now < end);
    return new Throughput(copies * src.length, copies, now - start);
  }

  /** One loopback TCP connection streaming 1 MiB writes from a direct buffer, as received. */
  static Throughput rawTcp(Duration warmup, Duration measured) throws IOException {
    stream(warmup);
    return stream(measured);
  }

  private static Throughput stream(Duration duration) throws IOException {
    try (ServerSocketChannel server = ServerSocketChannel.open()) {
      server.bind(new InetSocketAddress("127.0.0.1", 0));
      CompletableFuture<Long> received = CompletableFuture.supplyAsync(() -> {
        try (SocketChannel in = server.accept()) {
          ByteBuffer buf = ByteBuffer.allocateDirect(TCP_WRITE);
          long total = 0;
          int n;
          while ((n = in.read(buf)) >= 0) {
            total += n;
            buf.clear();
          }
          return total;
        } catch (IOException e) {
          throw new IllegalStateException("loopback receiver failed: " + e, e);
        }
      });
      ByteBuffer out = ByteBuffer.allocateDirect(TCP_WRITE);
      long writes = 0;
      long start;
      try (SocketChannel ch = SocketChannel.open()) {
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ch.connect(server.getLocalAddress());
        start = System.nanoTime();
        long end = start + duration.toNanos();
        while (System.nanoTime() < end) {
          out.clear();
          while (out.hasRemaining()) {
            ch.write(out);
          }
          writes++;
        }
        ch.shutdownOutput();
        long total = received.join();
        long nanos = System.nanoTime() - start;
        return new Throughput(total, writes, nanos);
      }
    }
  }
}
