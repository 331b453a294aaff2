package org.scache.worker;

import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.scache.common.Checks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's reserved off-heap memory: memory-mapped segments of shared memory, carved into
 * blocks by an {@link ExtentAllocator} per segment. Bounded by construction: it can never hand out
 * more than it reserved. Segment files are unlinked as soon as they are mapped, so a crashed worker
 * leaves nothing behind.
 */
final class MemoryPool implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MemoryPool.class);
  static final int ALIGNMENT = 64;

  /** A range of one segment, given to one block. */
  record Region(int segment, long offset, long allocated, ByteBuffer buffer) {}

  private final List<MappedByteBuffer> segments = new ArrayList<>();
  private final List<ExtentAllocator> allocators = new ArrayList<>();
  private final long reserved;
  private final long maxRegion;
  private long used;
  private boolean closed;

  MemoryPool(Path dir, String tag, long reserveBytes, long segmentBytes, boolean pretouch) throws IOException {
    Checks.require(reserveBytes > 0, "memory reserve must be positive: %s", reserveBytes);
    Checks.require(segmentBytes > 0 && segmentBytes <= Integer.MAX_VALUE - ALIGNMENT,
        "segment size must be in 1..%s bytes: %s", Integer.MAX_VALUE - ALIGNMENT, segmentBytes);
    Files.createDirectories(dir);
    long left = reserveBytes;
    long largest = 0;
    for (int i = 0; left > 0; i++) {
      long size = Math.min(left, segmentBytes);
      Path file = dir.resolve("scache-" + tag.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + ProcessHandle.current().pid()
          + "-" + i + ".mem");
      try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
        raf.setLength(size);
        MappedByteBuffer buf = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, size);
        segments.add(buf);
      } finally {
        Files.deleteIfExists(file);
      }
      allocators.add(new ExtentAllocator(size));
      if (pretouch) {
        MappedByteBuffer b = segments.get(i);
        for (int p = 0; p < size; p += 4096) {
          b.put(p, (byte) 0);
        }
      }
      largest = Math.max(largest, size);
      left -= size;
    }
    this.reserved = reserveBytes;
    this.maxRegion = largest;
    LOG.info("reserved {} bytes of shared memory in {} segment(s) under {}", reserveBytes, segments.size(), dir);
  }

  /** A region of at least {@code length} bytes, or empty when the reserve has no room for it. */
  synchronized Optional<Region> allocate(long length) {
    Checks.requireState(!closed, "memory pool is closed");
    long size = align(length);
    for (int i = 0; i < allocators.size(); i++) {
      OptionalLong offset = allocators.get(i).allocate(size);
      if (offset.isPresent()) {
        used += size;
        ByteBuffer slice = segments.get(i).duplicate().position((int) offset.getAsLong())
            .limit((int) (offset.getAsLong() + length)).slice();
        return Optional.of(new Region(i, offset.getAsLong(), size, slice));
      }
    }
    return Optional.empty();
  }

  synchronized void free(Region region) {
    if (closed) {
      return;
    }
    allocators.get(region.segment()).release(region.offset(), region.allocated());
    used -= region.allocated();
  }

  /** Whether a block of this size could ever fit. */
  boolean canEverHold(long length) {
    return align(length) <= maxRegion;
  }

  long reservedBytes() {
    return reserved;
  }

  synchronized long usedBytes() {
    return used;
  }

  /** Bytes allocated per region are rounded up to the alignment. */
  static long align(long length) {
    return Math.max(ALIGNMENT, (length + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT);
  }

  /** Unmaps the segments; nothing may read or write a region afterwards. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (MappedByteBuffer b : segments) {
      PlatformDependent.freeDirectBuffer(b);
    }
    segments.clear();
  }
}
