package org.scache.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.scache.common.ScacheException;
import org.scache.common.protocol.LocalSegment;
import org.scache.common.protocol.PinnedBlock;
import org.scache.common.protocol.Status;

/**
 * A worker's shared-memory segment files, mapped into this process. Every copy into or out of them
 * holds a read lock that {@link #close()} waits for before it unmaps, so no copy touches memory that
 * is gone; after the close every copy fails with {@code CONNECTION_FAILED}.
 */
final class MappedSegments implements AutoCloseable {
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final Map<String, MappedByteBuffer> byPath = new HashMap<>();
  /** Views of pinned blocks handed out ({@link #view}) and not yet released; guarded by this. */
  private int views;
  private boolean closed;

  /**
   * The segments {@code listed}, in their order; a file mapped before with the same size is not
   * mapped again, and mappings of files no longer listed are left to the collector.
   */
  synchronized List<MappedByteBuffer> map(List<LocalSegment> listed) throws IOException {
    requireOpen();
    if (listed.isEmpty()) {
      throw new IOException("the worker listed no segments");
    }
    List<MappedByteBuffer> segments = new ArrayList<>(listed.size());
    Map<String, MappedByteBuffer> kept = new HashMap<>();
    for (int i = 0; i < listed.size(); i++) {
      LocalSegment seg = listed.get(i);
      if (seg.index() != i || seg.size() <= 0 || seg.size() > Integer.MAX_VALUE) {
        throw new IOException("unexpected segment " + seg);
      }
      MappedByteBuffer b = byPath.get(seg.path());
      if (b == null || b.capacity() != seg.size()) {
        b = mapFile(Path.of(seg.path()), seg.size());
      }
      kept.put(seg.path(), b);
      segments.add(b);
    }
    byPath.clear();
    byPath.putAll(kept);
    return List.copyOf(segments);
  }

  /** Copies {@code data} (position to limit) to {@code offset} of {@code segments[segment]}. */
  void copyIn(List<MappedByteBuffer> segments, int segment, long offset, ByteBuffer data) {
    lock.readLock().lock();
    try {
      requireOpen();
      segments.get(segment).put((int) offset, data, data.position(), data.remaining());
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Copies the pinned block {@code pin} to {@code out}, from its index 0 on (its position unchanged). */
  void copyOut(List<MappedByteBuffer> segments, PinnedBlock pin, ByteBuffer out) {
    if (pin.segment() >= segments.size() || pin.length() > out.limit()
        || pin.offset() + pin.length() > segments.get(pin.segment()).capacity()) {
      throw new ScacheException(Status.MALFORMED_MESSAGE, "pinned block " + pin + " lies outside the mapped "
          + "segments");
    }
    lock.readLock().lock();
    try {
      requireOpen();
      out.put(0, segments.get(pin.segment()), (int) pin.offset(), (int) pin.length());
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * The pinned block {@code pin} where it lies, read-only: no copy. The block must stay pinned until
   * the view is {@linkplain #viewReleased released}; while views are out, {@link #close()} leaves the
   * mappings to the collector instead of unmapping them under a reader.
   */
  synchronized ByteBuffer view(List<MappedByteBuffer> segments, PinnedBlock pin) {
    requireOpen();
    if (pin.segment() >= segments.size() || pin.offset() + pin.length() > segments.get(pin.segment()).capacity()) {
      throw new ScacheException(Status.MALFORMED_MESSAGE, "pinned block " + pin + " lies outside the mapped "
          + "segments");
    }
    views++;
    return segments.get(pin.segment()).slice((int) pin.offset(), (int) pin.length()).asReadOnlyBuffer();
  }

  /** A view of {@link #view} is read no more. */
  synchronized void viewReleased() {
    views--;
  }

  /** Copies the pinned block {@code pin} to {@code out} from index {@code at} on. */
  void copyOut(List<MappedByteBuffer> segments, PinnedBlock pin, byte[] out, int at) {
    copyOut(segments, pin, ByteBuffer.wrap(out, at, out.length - at).slice());
  }

  private static MappedByteBuffer mapFile(Path file, long size) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      if (ch.size() != size) {
        throw new IOException(file + " has " + ch.size() + " bytes, the worker announced " + size);
      }
      return ch.map(FileChannel.MapMode.READ_WRITE, 0, size);
    }
  }

  private void requireOpen() {
    if (closed) {
      throw new ScacheException(Status.CONNECTION_FAILED, "the client is closed");
    }
  }

  /**
   * Unmaps every segment once no copy is running; with views still out, the segments are left for the
   * collector to unmap once no view refers to them.
   */
  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      synchronized (this) {
        closed = true;
        if (views == 0) {
          byPath.values().forEach(Unmapper::unmap);
        }
        byPath.clear();
      }
    } finally {
      lock.writeLock().unlock();
    }
  }
}
