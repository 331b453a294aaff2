package org.scache.worker.local;

/** A range of shared memory leased to a local client: {@code length} bytes at {@code offset} of {@code segment}. */
public record LeasedRange(long leaseId, int segment, long offset, long length) {}
