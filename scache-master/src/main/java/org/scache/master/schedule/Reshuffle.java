package org.scache.master.schedule;

/**
 * A re-shuffle ordered by Algorithm 2: the data earlier shuffles placed for a reduce must move
 * because the reduce's host changed.
 *
 * @param reduceId the reduce whose data moves
 * @param fromHost the host the earlier shuffles' data is on
 * @param toHost the reduce's new host
 * @param bytes the accumulated bytes of the earlier shuffles to move
 */
public record Reshuffle(int reduceId, String fromHost, String toHost, double bytes) {}
