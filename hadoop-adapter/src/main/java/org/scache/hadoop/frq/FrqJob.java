package org.scache.hadoop.frq;

import java.util.ArrayList;
import java.util.List;

/**
 * What the FRQ model ({@link FrqModel}) is fitted from, taken from one finished job's history: its input
 * bytes {@code D}, its shuffle bytes ({@code D × R}: the reduces' {@code REDUCE_SHUFFLE_BYTES}, or what
 * the maps put into SCache), its map waves {@code N} (maps over the most that ran at once), its map stage
 * ({@code T_map}, giving {@code V_map}), the reduces' own work ({@code D × R / V_reduce}: each reduce's
 * time from the end of its shuffle to its end, added up and divided by the most reduces that ran at
 * once), the reduces' launch ({@code T_launch}: a reduce's start to its shuffle's beginning, which the
 * history does not hold; 0, the paper's model, unless known from elsewhere) and their rounds (reduces over
 * the most that ran at once), and the measured job time the prediction is compared with. The job's start
 * (submission to its first map's start: the application master's container and JVM) is outside the
 * paper's model; it is measured and added, so that the model is judged on what it describes.
 */
public record FrqJob(Shuffle shuffle, long inputBytes, long shuffleBytes, int mapWaves, double startSeconds,
    double mapStageSeconds, double reduceWorkSeconds, double jobSeconds, double reduceLaunchSeconds,
    int reduceRounds) {

  /** A job without its reduces' launch: no launch term, one round. */
  public FrqJob(Shuffle shuffle, long inputBytes, long shuffleBytes, int mapWaves, double startSeconds,
      double mapStageSeconds, double reduceWorkSeconds, double jobSeconds) {
    this(shuffle, inputBytes, shuffleBytes, mapWaves, startSeconds, mapStageSeconds, reduceWorkSeconds, jobSeconds,
        0, 1);
  }

  /**
   * The job whose task attempts were {@code attempts}, submitted at {@code submit} and finished at
   * {@code finish} (epoch milliseconds); {@code reduceLaunchSeconds} is the median launch of its reduces,
   * 0 when unknown.
   */
  public static FrqJob of(Shuffle shuffle, long inputBytes, long shuffleBytes, List<TaskSpan> attempts, long submit,
      long finish, double reduceLaunchSeconds) {
    List<TaskSpan> maps = attempts.stream().filter(TaskSpan::map).toList();
    List<TaskSpan> reduces = attempts.stream().filter(a -> !a.map() && a.succeeded() && a.shuffleFinish() > 0)
        .toList();
    long firstMapStart = maps.stream().mapToLong(TaskSpan::start).min().orElse(submit);
    long lastMapFinish = maps.stream().filter(TaskSpan::succeeded).mapToLong(TaskSpan::finish).max()
        .orElse(firstMapStart);
    long succeededMaps = maps.stream().filter(TaskSpan::succeeded).count();
    double work = reduces.stream().mapToLong(a -> Math.max(0, a.finish() - a.shuffleFinish())).sum() / 1000.0;
    int reduceSlots = Math.max(1, mostAtOnce(reduces));
    int mapSlots = Math.max(1, mostAtOnce(maps));
    int waves = (int) Math.max(1, (succeededMaps + mapSlots - 1) / mapSlots);
    double launch = Double.isNaN(reduceLaunchSeconds) ? 0 : reduceLaunchSeconds;
    int rounds = Math.max(1, (reduces.size() + reduceSlots - 1) / reduceSlots);
    return new FrqJob(shuffle, inputBytes, shuffleBytes, waves, (firstMapStart - submit) / 1000.0,
        (lastMapFinish - firstMapStart) / 1000.0, work / reduceSlots, (finish - submit) / 1000.0, launch, rounds);
  }

  /** The most of {@code attempts} that ran at the same moment. */
  public static int mostAtOnce(List<TaskSpan> attempts) {
    List<long[]> edges = new ArrayList<>();
    for (TaskSpan a : attempts) {
      edges.add(new long[] {a.start(), 1});
      edges.add(new long[] {a.finish(), -1});
    }
    // an attempt that ends when another starts does not overlap it
    edges.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
    int now = 0;
    int most = 0;
    for (long[] e : edges) {
      now += (int) e[1];
      most = Math.max(most, now);
    }
    return most;
  }

  /** The model with this job's parameters and {@code shuffleSpeed} (bytes of shuffle per second). */
  public FrqModel fit(double shuffleSpeed) {
    return new FrqModel(inputBytes, shuffleBytes / (double) inputBytes, mapWaves, inputBytes / mapStageSeconds,
        shuffleBytes / Math.max(reduceWorkSeconds, 0.001), shuffleSpeed, reduceLaunchSeconds, reduceRounds);
  }
}
