package org.scache.master.status;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Everything the master can say about one shuffle: its shape and progress, the prediction and why,
 * the placement per worker and round, the makespan against its lower bound, and where the bytes went.
 * Sizes are bytes; an actual size is known once every map has finished.
 */
public record ShuffleView(String appId, int shuffleId, String partitioner, int maps, int finishedMaps, int reduces,
    long submittedAtMillis, OptionalLong placedAtMillis, OptionalLong mapsDoneAtMillis, Optional<Prediction> prediction,
    List<ReduceView> reduceViews, List<NodeView> nodes, Traffic traffic) {

  public ShuffleView {
    reduceViews = List.copyOf(reduceViews);
    nodes = List.copyOf(nodes);
  }

  /** The placement's predictor, why it was chosen, and what it had seen. */
  public record Prediction(String predictor, String reason, String policy, int mapsObserved, int slotsPerWorker) {}

  /**
   * One reduce: predicted and actual input (actual -1 until every map finished), the worker and round
   * it was placed on, and where its input was read (empty until read).
   */
  public record ReduceView(int reduceId, long predictedBytes, long actualBytes, String placedWorker, int round,
      Optional<String> ranOn, Optional<String> offNodeReason, long localBytes, long remoteBytes) {}

  /** One worker's share of the placement: its reduces, rounds and load, predicted and actual. */
  public record NodeView(String workerId, List<Integer> reduces, int rounds, long predictedLoad, long actualLoad) {
    public NodeView {
      reduces = List.copyOf(reduces);
    }
  }

  /** Where the shuffle's bytes went, as the workers reported. */
  public record Traffic(long prefetchedDuringMaps, long prefetchedAfterMaps, long localRead, long remoteRead,
      int reducesRead, int reducesOffNode) {}

  /** Whether every map has finished, so that actual sizes are known. */
  public boolean actualKnown() {
    return maps > 0 && finishedMaps >= maps;
  }

  /** The largest predicted load of one worker (the predicted makespan, in bytes). */
  public long predictedMakespan() {
    return nodes.stream().mapToLong(NodeView::predictedLoad).max().orElse(0);
  }

  public long actualMakespan() {
    return nodes.stream().mapToLong(NodeView::actualLoad).max().orElse(0);
  }

  /** No placement can do better than this: the larger of an even split over the workers and the largest reduce. */
  public long predictedLowerBound() {
    return lowerBound(reduceViews.stream().mapToLong(ReduceView::predictedBytes).toArray());
  }

  public long actualLowerBound() {
    return lowerBound(reduceViews.stream().mapToLong(r -> Math.max(0, r.actualBytes())).toArray());
  }

  private long lowerBound(long[] sizes) {
    if (nodes.isEmpty()) {
      return 0;
    }
    long total = 0;
    long max = 0;
    for (long s : sizes) {
      total += s;
      max = Math.max(max, s);
    }
    return Math.max(max, (total + nodes.size() - 1) / nodes.size());
  }
}
