package org.scache.benchmarks.store;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.scache.master.predict.ReducePrediction;
import org.scache.master.predict.SamplingPredictor;
import org.scache.master.schedule.FifoRoundRobinScheduler;
import org.scache.master.schedule.HeuristicMinHeapScheduler;
import org.scache.master.schedule.HostPlacement;
import org.scache.master.schedule.RandomScheduler;
import org.scache.sampling.SplitSample;
import org.scache.sampling.WeightedSamplingPredictor;

/**
 * Network bytes a shuffle moves under each placement when 93% of every reducer's input comes from
 * one map, compared with the locality-optimal placement (each reduce on the host with its largest
 * share), and the load balance each placement pays for it.
 */
final class LocalityBenchmark {
  private static final int HOSTS = 20;
  private static final int MAPS = 40;
  private static final int REDUCES = 400;
  private static final double DOMINANT = 0.93;
  private static final int TRIALS = 20;

  private LocalityBenchmark() {}

  static void run(PrintStream out) {
    out.printf(
        "Network bytes: %d hosts, %d maps (map j on host j mod %d), %d reduces, Zipf(0.8) sizes,%n",
        HOSTS, MAPS, HOSTS, REDUCES);
    out.printf("%.0f%% of each reduce's input from one random map; mean of %d trials%n", DOMINANT * 100, TRIALS);
    out.printf("%-30s %16s %16s%n", "placement", "bytes moved", "max load / LB");
    String[] names = {"locality-optimal", "random", "FIFO round-robin", "MinHeap without swap (LPT)",
        "MinHeap with swap",
        "sampled, map hosts unknown", "sampled, expected map hosts"};
    double[] moved = new double[names.length];
    double[] balance = new double[names.length];
    List<String> hosts = Workloads.hosts(HOSTS);
    for (int trial = 0; trial < TRIALS; trial++) {
      SplittableRandom random = new SplittableRandom(500 + trial);
      double[] sizes = Workloads.zipfSizes(REDUCES, 0.8, random);
      double[][] onHost = new double[REDUCES][HOSTS];
      double[][] fromMap = new double[MAPS][REDUCES];
      for (int i = 0; i < REDUCES; i++) {
        int dominant = random.nextInt(MAPS);
        double rest = sizes[i] * (1 - DOMINANT) / (MAPS - 1);
        for (int j = 0; j < MAPS; j++) {
          fromMap[j][i] = j == dominant ? sizes[i] * DOMINANT : rest;
          onHost[i][j % HOSTS] += fromMap[j][i];
        }
      }
      List<ReducePrediction> reduces = new ArrayList<>();
      Map<Integer, String> localityOptimal = new HashMap<>();
      for (int i = 0; i < REDUCES; i++) {
        int best = 0;
        for (int h = 1; h < HOSTS; h++) {
          best = onHost[i][h] > onHost[i][best] ? h : best;
        }
        localityOptimal.put(i, hosts.get(best));
        reduces.add(
            new ReducePrediction(i, sizes[i], Math.min(1, onHost[i][best] / sizes[i]), Optional.of(hosts.get(best))));
      }
      double total = Workloads.sum(sizes);
      double lowerBound = Math.max(total / HOSTS, Workloads.max(sizes));
      HostPlacement[] results = {
        HostPlacement.of(hosts, reduces, localityOptimal),
        new RandomScheduler(random).schedule(MAPS, hosts, reduces),
        new FifoRoundRobinScheduler().schedule(MAPS, hosts, reduces),
        new HeuristicMinHeapScheduler(false).schedule(MAPS, hosts, reduces),
        new HeuristicMinHeapScheduler(true).schedule(MAPS, hosts, reduces),
        new HeuristicMinHeapScheduler(true).schedule(MAPS, hosts, sampled(fromMap, hosts, false, random)),
        new HeuristicMinHeapScheduler(true).schedule(MAPS, hosts, sampled(fromMap, hosts, true, random))
      };
      for (int k = 0; k < results.length; k++) {
        double remote = 0;
        for (int i = 0; i < REDUCES; i++) {
          remote += sizes[i] - onHost[i][hosts.indexOf(results[k].hostOf(i))];
        }
        moved[k] += remote / total / TRIALS;
        balance[k] += results[k].maxLoad() / lowerBound / TRIALS;
      }
    }
    for (int k = 0; k < names.length; k++) {
      out.printf("%-30s %15.1f%% %16.3f%n", names[k], moved[k] * 100, balance[k]);
    }
    out.println("bytes moved: share of all shuffle bytes read from another host. The sampled rows place from eq. 2");
    out.printf("on %d samples per reduce of every map, before any map ran: with the host each map is expected on,%n",
        SAMPLES_PER_REDUCE);
    out.println("or without (the master then knows no map's host).");
  }

  private static final int SAMPLES_PER_REDUCE = 20;

  /** Predictions from reservoir samples of every map's output (eq. 2, 3), with or without each map's host. */
  private static List<ReducePrediction> sampled(double[][] fromMap, List<String> hosts, boolean withHosts,
      SplittableRandom random) {
    int capacity = SAMPLES_PER_REDUCE * REDUCES;
    List<SplitSample> splits = new ArrayList<>(MAPS);
    List<Optional<String>> mapHosts = new ArrayList<>(MAPS);
    for (int j = 0; j < MAPS; j++) {
      double[] cumulative = new double[REDUCES];
      double sum = 0;
      for (int i = 0; i < REDUCES; i++) {
        sum += fromMap[j][i];
        cumulative[i] = sum;
      }
      int[] counts = new int[REDUCES];
      for (int k = 0; k < capacity; k++) {
        int at = java.util.Arrays.binarySearch(cumulative, random.nextDouble() * sum);
        counts[Math.min(REDUCES - 1, at < 0 ? -at - 1 : at)]++;
      }
      splits.add(SplitSample.of((long) sum, capacity, counts));
      mapHosts.add(withHosts ? Optional.of(hosts.get(j % HOSTS)) : Optional.empty());
    }
    return new SamplingPredictor(new WeightedSamplingPredictor(REDUCES, SAMPLES_PER_REDUCE)).predict(splits, mapHosts);
  }
}
