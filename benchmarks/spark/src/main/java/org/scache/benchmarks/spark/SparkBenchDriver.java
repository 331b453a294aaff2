package org.scache.benchmarks.spark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.spark.ScacheShuffleManager;

/**
 * An application's driver: runs one benchmark program on one shuffle against the cluster's Spark
 * master and writes what it measured ({@link RunFigures}) to a file. One application per run, so that
 * every run starts its executors afresh; with {@code --warm-jobs N} the application first runs N
 * unmeasured GroupBys of {@code --warm-size} bytes on the same executors, as a long-lived application
 * (a notebook, a series of queries) has run jobs before the one that is measured.
 *
 * <pre>
 * SparkBenchDriver --program groupby|terasort|chain|join|pagerank|teragen --shuffle sort|scache --size BYTES --maps 24
 *     --reduces 12 --spark-master spark://ctl:7077 --scache-master ctl:17010 --scache-worker-port 17020
 *     --executors 3 --executor-cores 2 --executor-memory 1024m --extra-class-path a:b --data DIR --figures FILE
 *     [--warm-jobs 0 --warm-size BYTES] [--value-bytes 92]
 * </pre>
 */
public final class SparkBenchDriver {
  private SparkBenchDriver() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> o = options(args);
    BenchJobs.Program program = "teragen".equals(o.get("program")) ? null : BenchJobs.Program.parse(o.get("program"));
    boolean scache = "scache".equals(o.get("shuffle"));
    long size = Long.parseLong(o.get("size"));
    int maps = Integer.parseInt(o.get("maps"));
    int reduces = Integer.parseInt(o.get("reduces"));
    int valueBytes = BenchJobs.valueBytes(o.getOrDefault("value-bytes", Integer.toString(BenchJobs.VALUE_BYTES)));
    SparkConf conf = BenchApplication.conf(o, o.get("program") + "-" + o.get("shuffle"))
        .set("spark.default.parallelism", Integer.toString(reduces));
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      BenchApplication.awaitExecutors(sc, o);
      if (program == null) {
        BenchJobs.teraGen(sc, size, maps, o.get("data"));
        return;
      }
      int warmJobs = Integer.parseInt(o.getOrDefault("warm-jobs", "0"));
      long warmSize = Long.parseLong(o.getOrDefault("warm-size", Long.toString(size / 8)));
      for (int j = 0; j < warmJobs; j++) {
        System.out.println("WARM " + BenchJobs.groupBy(sc, warmSize, maps, reduces, valueBytes));
      }
      StageFigures figures = new StageFigures();
      sc.sc().addSparkListener(figures);
      long start = System.currentTimeMillis();
      String output = switch (program) {
        case GROUPBY -> BenchJobs.groupBy(sc, size, maps, reduces, valueBytes);
        case TERASORT -> BenchJobs.teraSort(sc, o.get("data"), reduces);
        case CHAIN -> StageJobs.chain(sc, maps, reduces);
        case JOIN -> StageJobs.joinThenAggregate(sc, size, maps, reduces);
        case PAGERANK -> StageJobs.pageRank(sc, size, maps, reduces);
      };
      long end = System.currentTimeMillis();
      sc.sc().listenerBus().waitUntilEmpty();
      // each warm-up GroupBy registered one shuffle: the measured job's first is the next (the reduce tasks of a
      // program of one shuffle are compared with its placement)
      boolean oneShuffle = program == BenchJobs.Program.GROUPBY || program == BenchJobs.Program.TERASORT;
      Map<Integer, String> placed = scache && oneShuffle ? placedHosts(warmJobs) : null;
      RunFigures run = RunFigures.of(program.label(), o.get("shuffle"), output, start, end, figures,
          placed == null ? null : placed::get);
      run.write(Path.of(o.get("figures")));
      Files.writeString(tasksFile(Path.of(o.get("figures"))), RunFigures.tasksCsv(figures));
      System.out.println("RUN " + program.label() + " " + o.get("shuffle") + " " + output + " in " + run.jobMs()
          + " ms");
    }
  }

  /** Where the driver writing {@code figures} writes its tasks. */
  static Path tasksFile(Path figures) {
    return figures.resolveSibling(figures.getFileName().toString().replace(".properties", "") + "-tasks.csv");
  }

  /** The hosts SCache placed the reduces of the application's shuffle {@code shuffleId} on. */
  private static Map<Integer, String> placedHosts(int shuffleId) {
    Map<Integer, String> hosts = new HashMap<>();
    ScacheShuffleManager manager = (ScacheShuffleManager) SparkEnv.get().shuffleManager();
    Optional<ShufflePlacement> placement = manager.placement(shuffleId);
    placement.ifPresent(p -> p.assignments().forEach(a -> hosts.put(a.reduceId(), a.worker().host())));
    return hosts;
  }

  private static Map<String, String> options(String[] args) {
    List<String> required = new ArrayList<>(BenchApplication.CLUSTER_OPTIONS);
    required.addAll(List.of("program", "size", "maps", "reduces", "figures"));
    Map<String, String> o = BenchApplication.options(args, required);
    if (Files.isDirectory(Path.of(o.get("figures")))) {
      throw new IllegalArgumentException("--figures names a file");
    }
    return o;
  }
}
