package org.scache.worker.store;

import java.util.Comparator;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Hands out byte ranges of one fixed-size segment: best fit by size, neighbours coalesced on free.
 * Not thread-safe; {@link MemoryPool} serialises access.
 */
final class ExtentAllocator {
  private record Extent(long offset, long length) {}

  private static final Comparator<Extent> BY_SIZE =
      Comparator.comparingLong(Extent::length).thenComparingLong(Extent::offset);

  private final long capacity;
  private final TreeMap<Long, Long> freeByOffset = new TreeMap<>();
  private final TreeSet<Extent> freeBySize = new TreeSet<>(BY_SIZE);
  private long free;

  ExtentAllocator(long capacity) {
    this.capacity = capacity;
    if (capacity > 0) {
      addFree(0, capacity);
    }
    this.free = capacity;
  }

  /** The offset of a new range of {@code length} bytes, or empty when no free range is that large. */
  OptionalLong allocate(long length) {
    Extent fit = freeBySize.ceiling(new Extent(-1, length));
    if (fit == null) {
      return OptionalLong.empty();
    }
    removeFree(fit);
    if (fit.length > length) {
      addFree(fit.offset + length, fit.length - length);
    }
    free -= length;
    return OptionalLong.of(fit.offset);
  }

  void release(long offset, long length) {
    long start = offset;
    long len = length;
    Map.Entry<Long, Long> before = freeByOffset.floorEntry(offset);
    if (before != null && before.getKey() + before.getValue() > offset) {
      throw new IllegalStateException("double free of [" + offset + ", +" + length + ")");
    }
    if (before != null && before.getKey() + before.getValue() == offset) {
      removeFree(new Extent(before.getKey(), before.getValue()));
      start = before.getKey();
      len += before.getValue();
    }
    Long afterLen = freeByOffset.get(offset + length);
    if (afterLen != null) {
      removeFree(new Extent(offset + length, afterLen));
      len += afterLen;
    }
    addFree(start, len);
    free += length;
  }

  long freeBytes() {
    return free;
  }

  long largestFree() {
    return freeBySize.isEmpty() ? 0 : freeBySize.last().length;
  }

  long capacity() {
    return capacity;
  }

  private void addFree(long offset, long length) {
    freeByOffset.put(offset, length);
    freeBySize.add(new Extent(offset, length));
  }

  private void removeFree(Extent e) {
    freeByOffset.remove(e.offset);
    freeBySize.remove(e);
  }
}
