package org.scache.hadoop.frq;

import java.util.Locale;

/**
 * The Framework Resources Quantification model of the SCache paper (Section V, equations 4 to 10): a
 * job's time from its input size {@code D} (bytes), the shuffle bytes per input byte {@code R}, the map
 * waves {@code N}, the map and reduce computation speeds and the shuffle's transfer speed (bytes per
 * second; the shuffle speed counts the shuffle's bytes, {@code D × R}, whether or not each crosses a
 * link), and {@code K}, how much of the shuffle overlapping the reduces the reduces wait for.
 *
 * <pre>
 *   T_job      = T_map + T_reduce                          (4)
 *   T_map      = D / V_map                                 (5)
 *   T_reduce   = D × R / V_reduce + K × T_P_shuffle        (6)
 *   T_shuffle  = D × R / V_shuffle                         (7)
 *   Hadoop's shuffle (Fig. 9b):  T_P_shuffle = T_shuffle
 *   SCache, V_map × R ≥ V_shuffle (Fig. 10a): T_P_shuffle = T_shuffle − (N − 1) × T_map / N   (9)
 *   SCache, V_map × R &lt; V_shuffle (Fig. 10b): T_P_shuffle = T_shuffle / N                   (10)
 * </pre>
 *
 * The paper's Tables I and II use {@code T_shuffle = D / V_shuffle} with {@code R = 1}; here the
 * shuffle's own bytes are used, which is the same there. An infinite {@code V_shuffle} is a cluster
 * whose links do not limit the shuffle: then {@code T_shuffle} is 0 and the model predicts the same
 * time for both shuffles.
 *
 * <p>One term is added to eq. 6, for a framework that starts a process per task as MapReduce does: each
 * round of reduces launched after the maps' end waits for its launch, {@code T_launch} (container, JVM and
 * task set-up, before its shuffle begins), so {@code T_reduce} gains {@code rounds × T_launch}. With
 * more than one map wave the first round is launched during the maps and its launch is hidden: Hadoop's
 * by its slow start, SCache's by the application master's launch lead, a JVM's start-up before the maps'
 * forecast end, which comes while the last, partial wave runs. The
 * paper's model is {@code T_launch = 0}, its six-parameter form here.
 */
public record FrqModel(double inputBytes, double conversionRate, double mapWaves, double mapSpeed, double reduceSpeed,
    double shuffleSpeed, double reduceLaunchSeconds, int reduceRounds) {

  /** The paper's empirical {@code K} for Hadoop's shuffle (Tables I and II). */
  public static final double K_HADOOP = 0.6;
  /** The paper's empirical {@code K} with SCache: prefetched data makes the reduces wait less. */
  public static final double K_SCACHE = 0.5;

  public FrqModel {
    if (!(inputBytes > 0) || !(conversionRate >= 0) || !(mapWaves >= 1) || !(mapSpeed > 0) || !(reduceSpeed > 0)
        || !(shuffleSpeed > 0) || !(reduceLaunchSeconds >= 0) || reduceRounds < 1) {
      throw new IllegalArgumentException(String.format(Locale.ROOT, "FRQ parameters out of range: D=%s R=%s "
          + "N=%s V_map=%s V_reduce=%s V_shuffle=%s T_launch=%s rounds=%s", inputBytes, conversionRate, mapWaves,
          mapSpeed, reduceSpeed, shuffleSpeed, reduceLaunchSeconds, reduceRounds));
    }
  }

  /** The paper's model: no launch term. */
  public FrqModel(double inputBytes, double conversionRate, double mapWaves, double mapSpeed, double reduceSpeed,
      double shuffleSpeed) {
    this(inputBytes, conversionRate, mapWaves, mapSpeed, reduceSpeed, shuffleSpeed, 0, 1);
  }

  /** The same parameters in the paper's model, without the launch term. */
  public FrqModel withoutLaunch() {
    return new FrqModel(inputBytes, conversionRate, mapWaves, mapSpeed, reduceSpeed, shuffleSpeed);
  }

  /** The paper's two cases of SCache's prefetch (Fig. 10). */
  public enum Case {
    /** The maps make shuffle data at least as fast as the network carries it: the prefetch never pauses. */
    SHUFFLE_BOUND("10a"),
    /** The network is faster than the maps make data: the prefetch pauses every wave. */
    MAP_BOUND("10b");

    private final String figure;

    Case(String figure) {
      this.figure = figure;
    }

    public String figure() {
      return figure;
    }
  }

  public double shuffleBytes() {
    return inputBytes * conversionRate;
  }

  public double mapSeconds() {
    return inputBytes / mapSpeed;
  }

  public double shuffleSeconds() {
    return Double.isInfinite(shuffleSpeed) ? 0 : shuffleBytes() / shuffleSpeed;
  }

  /** The reduces' own work, without waiting: {@code D × R / V_reduce}. */
  public double reduceWorkSeconds() {
    return shuffleBytes() / reduceSpeed;
  }

  public Case scacheCase() {
    return mapSpeed * conversionRate >= shuffleSpeed ? Case.SHUFFLE_BOUND : Case.MAP_BOUND;
  }

  /**
   * The part of the shuffle that overlaps the reduce phase. Never negative: in the case of eq. 9 the
   * shuffle is at least as long as the map stage ({@code V_shuffle ≤ V_map × R}).
   */
  public double overlapSeconds(Shuffle shuffle) {
    if (shuffle == Shuffle.HADOOP) {
      return shuffleSeconds();
    }
    return scacheCase() == Case.SHUFFLE_BOUND
        ? shuffleSeconds() - (mapWaves - 1) * mapSeconds() / mapWaves
        : shuffleSeconds() / mapWaves;
  }

  public static double k(Shuffle shuffle) {
    return shuffle == Shuffle.HADOOP ? K_HADOOP : K_SCACHE;
  }

  public double reduceSeconds(Shuffle shuffle) {
    return reduceSeconds(shuffle, k(shuffle));
  }

  /** Eq. 6 with {@code k} in place of the paper's K, and the launch term. */
  public double reduceSeconds(Shuffle shuffle, double k) {
    return launchSeconds() + reduceWorkSeconds() + k * overlapSeconds(shuffle);
  }

  /**
   * The rounds of reduces whose launch the job waits for: all but the first when the maps run in more than
   * one wave (Hadoop's slow start and SCache's launch lead launch it during the maps), else every round.
   */
  public int launchRounds() {
    return mapWaves > 1 ? reduceRounds - 1 : reduceRounds;
  }

  /** The added term: {@code rounds × T_launch}, the same for both shuffles. */
  public double launchSeconds() {
    return launchRounds() * reduceLaunchSeconds;
  }

  public double jobSeconds(Shuffle shuffle) {
    return jobSeconds(shuffle, k(shuffle));
  }

  /** Eq. 4 with {@code k} in place of the paper's K. */
  public double jobSeconds(Shuffle shuffle, double k) {
    return mapSeconds() + reduceSeconds(shuffle, k);
  }
}
