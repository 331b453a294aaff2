package org.scache.common.shuffle;

/**
 * Whether a worker keeps one round of a shuffle only in part (it spilled some of the round's
 * blocks) or whole again (it loaded them back); the all-or-nothing rule of paper IV-B works on these.
 */
public record RoundState(String appId, int shuffleId, int round, boolean incomplete) {}
