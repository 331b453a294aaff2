package org.scache.master;

/** One block the master keeps apart from its map attempt's others: its size and the index of the worker holding it. */
record HeldBlock(long size, int holder) {}
