package org.scache.worker;

/** A range of shared memory leased to a local client: {@code length} bytes at {@code offset} of {@code segment}. */
record LeasedRange(long leaseId, int segment, long offset, long length) {}
