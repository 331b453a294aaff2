package org.scache.master.predict;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.scache.sampling.SamplingEstimate;
import org.scache.sampling.SplitSample;
import org.scache.sampling.WeightedSamplingPredictor;

/**
 * Predicts reduce sizes of a range- or custom-partitioned shuffle from the per-split samples of the
 * sampling job (eq. 2), and finds for each reduce the host holding its largest share (eq. 3).
 *
 * <p>A split whose map has not run yet has no host: its predicted blocks count towards the reduce
 * size but towards no host's share. Stateless and thread-safe.
 */
public final class SamplingPredictor {
  private final WeightedSamplingPredictor sampling;

  /** A predictor for {@code reduceCount} reduces with the paper's default {@code s = 3}. */
  public SamplingPredictor(int reduceCount) {
    this(new WeightedSamplingPredictor(reduceCount));
  }

  /** A predictor applying {@code sampling}'s eq. 2. */
  public SamplingPredictor(WeightedSamplingPredictor sampling) {
    this.sampling = Objects.requireNonNull(sampling, "sampling");
  }

  /** The per-split sample capacity {@code s × p} the sampling job must use. */
  public int sampleCapacity() {
    return sampling.sampleCapacity();
  }

  /**
   * Predicts every reduce's size, largest host share and that host.
   *
   * @param splits one sample per map input split, indexed by map id
   * @param splitHosts the worker holding each map's output, empty if not known yet; same length
   * @return one prediction per reduce id, in reduce id order
   */
  public List<ReducePrediction> predict(List<SplitSample> splits, List<Optional<String>> splitHosts) {
    Objects.requireNonNull(splits, "splits");
    Objects.requireNonNull(splitHosts, "splitHosts");
    HostShares.checkHosts(splitHosts, splits.size(), "split");
    SamplingEstimate estimate = sampling.predict(splits);
    return HostShares.predictions(sampling.reduceCount(), splitHosts, estimate::blockSize);
  }
}
