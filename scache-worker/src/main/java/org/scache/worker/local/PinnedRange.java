package org.scache.worker.local;

/** Where a block pinned for a local client lies: {@code length} bytes at {@code offset} of {@code segment}. */
public record PinnedRange(long pinId, int segment, long offset, long length) {}
