package org.scache.common.shuffle;

import org.scache.common.BlockId;

/** A block's id and its size in bytes. */
public record BlockSize(BlockId blockId, long size) {}
