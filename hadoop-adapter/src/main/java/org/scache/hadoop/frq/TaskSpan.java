package org.scache.hadoop.frq;

/**
 * One task attempt as a job's history records it, in epoch milliseconds: its start, for a reduce the end of
 * its shuffle (0 when unknown), its finish, and whether it succeeded.
 */
public record TaskSpan(boolean map, long start, long shuffleFinish, long finish, boolean succeeded) {}
