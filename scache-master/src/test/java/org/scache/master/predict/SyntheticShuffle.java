package org.scache.master.predict;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.scache.sampling.SplitSample;

/**
 * A synthetic shuffle with its true block sizes and per-split samples: records of 100 bytes, either
 * hash-partitioned (every map sees the same key distribution) or range-partitioned over a sorted
 * input (map {@code j} feeds reduce {@code j mod p} with {@code dominantShare} of its records).
 */
final class SyntheticShuffle {
  static final int RECORD_BYTES = 100;

  final long[] inputBytes;
  final long[][] blocks;
  final List<SplitSample> samples;

  private SyntheticShuffle(long[] inputBytes, long[][] blocks, List<SplitSample> samples) {
    this.inputBytes = inputBytes;
    this.blocks = blocks;
    this.samples = samples;
  }

  static SyntheticShuffle generate(
      int maps, int reduces, boolean range, double dominantShare, int samplesPerReduce, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    double[] hashWeights = new double[reduces];
    for (int i = 0; i < reduces; i++) {
      hashWeights[i] = 1.0 / Math.pow(1 + random.nextInt(reduces), 0.5); // uneven but map-independent
    }
    long[] inputBytes = new long[maps];
    long[][] blocks = new long[maps][reduces];
    List<SplitSample> samples = new ArrayList<>();
    for (int j = 0; j < maps; j++) {
      int records = 2000 + random.nextInt(6000);
      int[] partitions = new int[records];
      for (int k = 0; k < records; k++) {
        partitions[k] =
            range
                ? (random.nextDouble() < dominantShare ? j % reduces : random.nextInt(reduces))
                : pick(hashWeights, random);
        blocks[j][partitions[k]] += RECORD_BYTES;
      }
      inputBytes[j] = (long) records * RECORD_BYTES;
      samples.add(
          SplitSample.sample(
              IntStream.of(partitions).iterator(),
              inputBytes[j],
              samplesPerReduce * reduces,
              reduces,
              p -> p,
              random));
    }
    return new SyntheticShuffle(inputBytes, blocks, samples);
  }

  private static int pick(double[] weights, SplittableRandom random) {
    double total = 0;
    for (double w : weights) {
      total += w;
    }
    double u = random.nextDouble() * total;
    for (int i = 0; i < weights.length; i++) {
      u -= weights[i];
      if (u < 0) {
        return i;
      }
    }
    return weights.length - 1;
  }

  /** The outputs of the given maps, map {@code j} on host {@code "host-" + j}. */
  List<ObservedMapOutput> observe(int[] mapIds) {
    List<ObservedMapOutput> out = new ArrayList<>();
    for (int j : mapIds) {
      out.add(new ObservedMapOutput(j, "host-" + j, blocks[j]));
    }
    return out;
  }

  List<Optional<String>> splitHosts() {
    return IntStream.range(0, inputBytes.length).mapToObj(j -> Optional.of("host-" + j)).toList();
  }

  double[] actualReduceSizes() {
    double[] sizes = new double[blocks[0].length];
    for (long[] row : blocks) {
      for (int i = 0; i < row.length; i++) {
        sizes[i] += row[i];
      }
    }
    return sizes;
  }

  /** Mean absolute error between the normalised (sum 1) predicted and actual distributions. */
  static double normalizedMeanAbsoluteError(List<ReducePrediction> predicted, double[] actual) {
    double predictedTotal = predicted.stream().mapToDouble(ReducePrediction::size).sum();
    double actualTotal = 0;
    for (double a : actual) {
      actualTotal += a;
    }
    double error = 0;
    for (int i = 0; i < actual.length; i++) {
      double p = predictedTotal > 0 ? predicted.get(i).size() / predictedTotal : 0;
      error += Math.abs(p - actual[i] / actualTotal);
    }
    return error / actual.length;
  }
}
