package org.scache.master;

import java.util.List;

/**
 * Why a shuffle was placed as it was: the predictor used and the reason for it, how much of the map
 * stage had been seen, the predicted size of every reduce, and when. Kept with the shuffle for the
 * status page.
 *
 * @param predictor {@code regression} (eq. 1) or {@code sampling} (eq. 2)
 * @param reason one sentence a job author can read
 * @param mapsObserved finished maps when the placement was made
 * @param predictedBytes the predicted input of each reduce, by reduce id
 * @param slotsPerWorker reduces one worker runs at once, which makes the rounds
 */
record ScheduleExplanation(String predictor, String reason, int mapsObserved, List<Long> predictedBytes,
    long decidedAtMillis, int slotsPerWorker) {
  ScheduleExplanation {
    predictedBytes = List.copyOf(predictedBytes);
  }
}
