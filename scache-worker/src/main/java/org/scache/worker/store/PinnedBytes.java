package org.scache.worker.store;

import io.netty.buffer.ByteBuf;

/**
 * A block's bytes held in place for a reader on this host who copies them out of the shared memory:
 * the retained {@code reference} keeps the region from being reused until released, and
 * {@code segment} and {@code offset} are where the bytes lie in the pool.
 */
public record PinnedBytes(ByteBuf reference, int segment, long offset, long length) {}
