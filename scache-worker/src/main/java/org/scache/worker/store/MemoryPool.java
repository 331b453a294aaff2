package org.scache.worker.store;

import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.scache.common.Checks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's reserved off-heap memory: memory-mapped segments of shared memory, carved into
 * blocks by an {@link ExtentAllocator} per segment. Bounded by construction: it can never hand out
 * more than it reserved. Unshared, the segment files are unlinked as soon as they are mapped, so a
 * crashed worker leaves nothing behind; shared, they stay linked (owner-only) for clients on this
 * host to map, are deleted on close, and files of dead workers are removed at start.
 */
public final class MemoryPool implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MemoryPool.class);
  public static final int ALIGNMENT = 64;
  /** Numbers the pools of this process, so that two (embedded or in tests) never share a file name. */
  private static final AtomicInteger POOLS = new AtomicInteger();
  private static final Pattern SEGMENT_FILE = Pattern.compile("scache-.*-(\\d+)-\\d+\\.mem");

  /** A range of one segment, given to one block. */
  public record Region(int segment, long offset, long allocated, ByteBuffer buffer) {}

  /** A linked segment file, as a client on this host maps it. */
  public record SegmentFile(int index, Path path, long size) {}

  private final List<MappedByteBuffer> segments = new ArrayList<>();
  private final List<ExtentAllocator> allocators = new ArrayList<>();
  private final List<SegmentFile> files = new ArrayList<>();
  private final long reserved;
  private final long maxRegion;
  private long used;
  private boolean closed;

  public MemoryPool(Path dir, String tag, long reserveBytes, long segmentBytes, boolean pretouch) throws IOException {
    this(dir, tag, reserveBytes, segmentBytes, pretouch, false);
  }

  /** With {@code shared}, the segment files stay linked until {@link #close()}. */
  public MemoryPool(Path dir, String tag, long reserveBytes, long segmentBytes, boolean pretouch, boolean shared)
      throws IOException {
    Checks.require(reserveBytes > 0, "memory reserve must be positive: %s", reserveBytes);
    Checks.require(segmentBytes > 0 && segmentBytes <= Integer.MAX_VALUE - ALIGNMENT,
        "segment size must be in 1..%s bytes: %s", Integer.MAX_VALUE - ALIGNMENT, segmentBytes);
    Files.createDirectories(dir);
    removeStaleFiles(dir);
    long left = reserveBytes;
    long largest = 0;
    String prefix = "scache-" + tag.replaceAll("[^A-Za-z0-9._-]", "_") + "." + POOLS.incrementAndGet() + "-"
        + ProcessHandle.current().pid() + "-";
    try {
      for (int i = 0; left > 0; i++) {
        long size = Math.min(left, segmentBytes);
        Path file = dir.resolve(prefix + i + ".mem").toAbsolutePath();
        boolean keep = false;
        try {
          segments.add(mapNewFile(file, size));
          keep = shared;
        } finally {
          if (keep) {
            files.add(new SegmentFile(i, file, size));
          } else {
            Files.deleteIfExists(file);
          }
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
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
    this.reserved = reserveBytes;
    this.maxRegion = largest;
    LOG.info("reserved {} bytes of shared memory in {} segment(s) under {}{}", reserveBytes, segments.size(), dir,
        shared ? ", files shared with local clients" : "");
  }

  /** A new file of {@code size} bytes, readable and writable by its owner only, mapped. */
  private static MappedByteBuffer mapNewFile(Path file, long size) throws IOException {
    try {
      Files.createFile(file, PosixFilePermissions.asFileAttribute(
          EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE)));
    } catch (UnsupportedOperationException e) {
      Files.createFile(file);
    }
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(size);
      return raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, size);
    }
  }

  /** Deletes segment files whose worker process (the pid in the name) is gone. */
  static void removeStaleFiles(Path dir) {
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "scache-*.mem")) {
      for (Path f : stream) {
        Matcher m = SEGMENT_FILE.matcher(f.getFileName().toString());
        if (!m.matches()) {
          continue;
        }
        long pid;
        try {
          pid = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
          continue;
        }
        if (ProcessHandle.of(pid).isEmpty()) {
          try {
            Files.deleteIfExists(f);
            LOG.info("removed {}, left by worker process {} which is gone", f, pid);
          } catch (IOException e) {
            LOG.warn("cannot remove stale segment file {}: {}", f, e.toString());
          }
        }
      }
    } catch (IOException e) {
      LOG.warn("cannot look for stale segment files in {}: {}", dir, e.toString());
    }
  }

  /** The linked segment files, empty unless the pool is shared. */
  public List<SegmentFile> sharedFiles() {
    return List.copyOf(files);
  }

  public boolean isShared() {
    return !files.isEmpty();
  }

  /** A region of at least {@code length} bytes, or empty when the reserve has no room for it. */
  public synchronized Optional<Region> allocate(long length) {
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
    freeRange(region.segment(), region.offset(), region.allocated());
  }

  /**
   * Gives back {@code [offset, offset + length)} of a segment: any aligned part of an allocated
   * region, each part at most once.
   */
  public synchronized void freeRange(int segment, long offset, long length) {
    if (closed || length == 0) {
      return;
    }
    Checks.require(offset % ALIGNMENT == 0 && length % ALIGNMENT == 0, "unaligned range [%s, +%s)", offset, length);
    allocators.get(segment).release(offset, length);
    used -= length;
  }

  /**
   * A region over {@code length} bytes at {@code offset} of a segment that the caller already holds
   * (part of a larger allocation); freeing it gives back {@code align(length)} bytes.
   */
  public synchronized Region adopt(int segment, long offset, long length) {
    Checks.requireState(!closed, "memory pool is closed");
    Checks.require(offset % ALIGNMENT == 0 && length > 0, "cannot adopt [%s, +%s)", offset, length);
    ByteBuffer slice = segments.get(segment).duplicate().position((int) offset).limit((int) (offset + length)).slice();
    return new Region(segment, offset, align(length), slice);
  }

  /**
   * The {@code length} bytes at {@code offset} of a segment, which the caller holds (allocated and not freed), as a
   * buffer of their own: how a block kept as a place in the reserve is read without a buffer object held for it.
   */
  ByteBuffer slice(int segment, long offset, int length) {
    Checks.requireState(!closed, "memory pool is closed");
    return segments.get(segment).slice((int) offset, length);
  }

  /** Whether a block of this size could ever fit. */
  public boolean canEverHold(long length) {
    return align(length) <= maxRegion;
  }

  public long reservedBytes() {
    return reserved;
  }

  public synchronized long usedBytes() {
    return used;
  }

  /** Bytes allocated per region are rounded up to the alignment. */
  public static long align(long length) {
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
    for (SegmentFile f : files) {
      try {
        Files.deleteIfExists(f.path());
      } catch (IOException e) {
        LOG.warn("cannot remove segment file {}: {}", f.path(), e.toString());
      }
    }
  }
}
