package org.scache.common.shuffle;

import org.scache.common.BlockId;
import org.scache.common.WorkerInfo;

/** Where a block is stored and how large it is. */
public record BlockLocation(BlockId blockId, long size, WorkerInfo holder) {}
