package org.scache.master.schedule;

import java.util.OptionalInt;

/**
 * One step of Algorithm 1's heuristic locality swap: a reduce moved to the host holding its largest
 * share, possibly in exchange for one reduce moved back the other way.
 *
 * @param reduceId the reduce moved to its preferred host
 * @param fromHost the host it was on
 * @param toHost its preferred host
 * @param returnedReduceId the reduce moved from {@code toHost} to {@code fromHost}, if any
 * @param upperBound the load neither host may grow beyond, {@code (1 + norm) × max}
 */
public record LocalitySwap(
    int reduceId, String fromHost, String toHost, OptionalInt returnedReduceId, double upperBound) {}
