package org.scache.benchmarks.store;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.scache.master.predict.LinearRegressionPredictor;
import org.scache.master.predict.ObservedMapOutput;
import org.scache.master.predict.ReducePrediction;
import org.scache.master.predict.SamplingPredictor;
import org.scache.sampling.SplitSample;
import org.scache.sampling.WeightedSamplingPredictor;

/**
 * Compares the reduce-size predictors as in the paper's Fig. 5: mean absolute error of the
 * normalised reduce distribution for linear regression on a few observed maps and for weighted
 * reservoir sampling, on hash- and range-partitioned synthetic data.
 */
public final class PredictionErrorBenchmark {
  private static final int MAPS = 20;
  private static final int REDUCES = 20;
  private static final int RECORD_BYTES = 100;
  private static final int SEEDS = 20;

  private PredictionErrorBenchmark() {}

  /** Prints the prediction error table. */
  public static void main(String[] args) {
    run(System.out);
  }

  static void run(PrintStream out) {
    out.printf("Prediction error: %d maps, %d reduces, mean over %d seeds;%n", MAPS, REDUCES, SEEDS);
    out.println("MAE of the normalised reduce distribution (mean share 1/" + REDUCES + " = 0.05)");
    out.printf("%-28s %12s %12s %12s %12s%n", "data", "regr 2 maps", "regr 4 maps", "sampl s=1", "sampl s=3");
    for (boolean range : new boolean[] {false, true}) {
      double[] errors = new double[4];
      for (int seed = 1; seed <= SEEDS; seed++) {
        Shuffle shuffle = Shuffle.generate(range, seed);
        errors[0] += error(regression(shuffle, 2, seed), shuffle) / SEEDS;
        errors[1] += error(regression(shuffle, 4, seed), shuffle) / SEEDS;
        errors[2] += error(sampling(shuffle, 1, seed), shuffle) / SEEDS;
        errors[3] += error(sampling(shuffle, 3, seed), shuffle) / SEEDS;
      }
      out.printf(
          "%-28s %12.4f %12.4f %12.4f %12.4f%n",
          range ? "range-partitioned, 95% skew" : "hash-partitioned",
          errors[0],
          errors[1],
          errors[2],
          errors[3]);
    }
  }

  private static List<ReducePrediction> regression(Shuffle shuffle, int observed, long seed) {
    int[] maps = new SplittableRandom(seed * 31).ints(0, MAPS).distinct().limit(observed).toArray();
    List<ObservedMapOutput> outputs = new ArrayList<>();
    for (int j : maps) {
      outputs.add(new ObservedMapOutput(j, "host-" + j, shuffle.blocks[j]));
    }
    return new LinearRegressionPredictor(REDUCES).predict(shuffle.inputBytes, outputs);
  }

  private static List<ReducePrediction> sampling(Shuffle shuffle, int s, long seed) {
    SplittableRandom random = new SplittableRandom(seed * 17 + s);
    List<SplitSample> samples = new ArrayList<>();
    for (int j = 0; j < MAPS; j++) {
      samples.add(
          SplitSample.sample(
              IntStream.of(shuffle.records[j]).iterator(), shuffle.inputBytes[j], s * REDUCES, REDUCES, p -> p,
                  random));
    }
    List<Optional<String>> hosts = IntStream.range(0, MAPS).mapToObj(j -> Optional.of("host-" + j)).toList();
    return new SamplingPredictor(new WeightedSamplingPredictor(REDUCES, s)).predict(samples, hosts);
  }

  private static double error(List<ReducePrediction> predicted, Shuffle shuffle) {
    double[] actual = new double[REDUCES];
    for (long[] row : shuffle.blocks) {
      for (int i = 0; i < REDUCES; i++) {
        actual[i] += row[i];
      }
    }
    double actualTotal = Workloads.sum(actual);
    double predictedTotal = predicted.stream().mapToDouble(ReducePrediction::size).sum();
    double error = 0;
    for (int i = 0; i < REDUCES; i++) {
      double share = predictedTotal > 0 ? predicted.get(i).size() / predictedTotal : 0;
      error += Math.abs(share - actual[i] / actualTotal);
    }
    return error / REDUCES;
  }

  /** Records (as partition ids) and true blocks of a synthetic shuffle. */
  private static final class Shuffle {
    final int[][] records = new int[MAPS][];
    final long[] inputBytes = new long[MAPS];
    final long[][] blocks = new long[MAPS][REDUCES];

    static Shuffle generate(boolean range, long seed) {
      SplittableRandom random = new SplittableRandom(seed);
      double[] keyWeights = new double[REDUCES];
      for (int i = 0; i < REDUCES; i++) {
        keyWeights[i] = 1.0 / Math.sqrt(1 + random.nextInt(REDUCES));
      }
      double weightTotal = Workloads.sum(keyWeights);
      Shuffle shuffle = new Shuffle();
      for (int j = 0; j < MAPS; j++) {
        int n = 2000 + random.nextInt(6000);
        int[] partitions = new int[n];
        for (int k = 0; k < n; k++) {
          if (range) {
            partitions[k] = random.nextDouble() < 0.95 ? j % REDUCES : random.nextInt(REDUCES);
          } else {
            double u = random.nextDouble() * weightTotal;
            int p = 0;
            while (p < REDUCES - 1 && (u -= keyWeights[p]) >= 0) {
              p++;
            }
            partitions[k] = p;
          }
          shuffle.blocks[j][partitions[k]] += RECORD_BYTES;
        }
        shuffle.records[j] = partitions;
        shuffle.inputBytes[j] = (long) n * RECORD_BYTES;
      }
      return shuffle;
    }
  }
}
