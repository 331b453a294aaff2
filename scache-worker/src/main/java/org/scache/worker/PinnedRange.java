package org.scache.worker;

/** Where a block pinned for a local client lies: {@code length} bytes at {@code offset} of {@code segment}. */
record PinnedRange(long pinId, int segment, long offset, long length) {}
