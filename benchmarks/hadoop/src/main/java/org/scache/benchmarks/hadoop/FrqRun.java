package org.scache.benchmarks.hadoop;

import java.util.ArrayList;
import java.util.List;

/**
 * What the FRQ model ({@link FrqModel}) is fitted from, taken from one finished job's history: its input
 * bytes {@code D}, its shuffle bytes ({@code D × R}: the reduces' {@code REDUCE_SHUFFLE_BYTES}, or what
 * the maps put into SCache), its map waves {@code N} (maps over the most that ran at once), its map stage
 * ({@code T_map}, giving {@code V_map}), the reduces' own work ({@code D × R / V_reduce}: each reduce's
 * time from the end of its shuffle to its end, added up and divided by the most reduces that ran at
 * once), the reduces' launch ({@code T_launch}: the median time from a reduce's start to its shuffle's
 * beginning, from the reduces' logs; 0 when they were not found) and their rounds (reduces over the most
 * that ran at once), and the measured job time the prediction is compared with. The job's start
 * (submission to its first map's start: the application master's container and JVM) is outside the
 * paper's model; it is measured and added, so that the model is judged on what it describes.
 */
record FrqRun(Shuffle shuffle, long inputBytes, long shuffleBytes, int mapWaves, double startSeconds,
    double mapStageSeconds, double reduceWorkSeconds, double jobSeconds, double reduceLaunchSeconds,
    int reduceRounds) {

  /** A run without its reduces' logs: no launch term, one round. */
  FrqRun(Shuffle shuffle, long inputBytes, long shuffleBytes, int mapWaves, double startSeconds,
      double mapStageSeconds, double reduceWorkSeconds, double jobSeconds) {
    this(shuffle, inputBytes, shuffleBytes, mapWaves, startSeconds, mapStageSeconds, reduceWorkSeconds, jobSeconds,
        0, 1);
  }

  static FrqRun of(JobFigures job, long inputBytes) {
    long shuffleBytes = job.reduceShuffleBytes() > 0 ? job.reduceShuffleBytes() : job.scacheBytesPut();
    List<AttemptSpan> reduces = job.attempts().stream().filter(a -> !a.map() && a.succeeded() && a.shuffleFinish() > 0)
        .toList();
    double work = reduces.stream().mapToLong(a -> Math.max(0, a.finish() - a.shuffleFinish())).sum() / 1000.0;
    int reduceSlots = Math.max(1, mostAtOnce(reduces));
    int mapSlots = Math.max(1, mostAtOnce(job.attempts().stream().filter(AttemptSpan::map).toList()));
    int waves = (int) Math.max(1, (job.maps() + mapSlots - 1) / mapSlots);
    double launch = Double.isNaN(job.medianLaunchSeconds()) ? 0 : job.medianLaunchSeconds();
    int rounds = Math.max(1, (reduces.size() + reduceSlots - 1) / reduceSlots);
    return new FrqRun(job.shuffle(), inputBytes, shuffleBytes, waves, (job.firstMapStart() - job.submit()) / 1000.0,
        job.mapStageSeconds(), work / reduceSlots, job.jobSeconds(), launch, rounds);
  }

  /** The most of {@code attempts} that ran at the same moment. */
  static int mostAtOnce(List<AttemptSpan> attempts) {
    List<long[]> edges = new ArrayList<>();
    for (AttemptSpan a : attempts) {
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

  /** The model with this run's parameters and {@code shuffleSpeed} (bytes of shuffle per second). */
  FrqModel fit(double shuffleSpeed) {
    return new FrqModel(inputBytes, shuffleBytes / (double) inputBytes, mapWaves, inputBytes / mapStageSeconds,
        shuffleBytes / Math.max(reduceWorkSeconds, 0.001), shuffleSpeed, reduceLaunchSeconds, reduceRounds);
  }

  /** The CSV columns {@link #csvFields()} fills, after a comma. */
  static final String CSV_COLUMNS = "input_bytes,shuffle_bytes,map_waves,start_s,reduce_work_s,reduce_launch_s,"
      + "reduce_rounds";

  String csvFields() {
    return String.format(java.util.Locale.ROOT, "%d,%d,%d,%.3f,%.3f,%.3f,%d", inputBytes, shuffleBytes, mapWaves,
        startSeconds, reduceWorkSeconds, reduceLaunchSeconds, reduceRounds);
  }

  /** The run of one line of the benchmark's {@code runs.csv}; one written before the launch term has none. */
  static FrqRun ofCsv(List<String> header, String[] f) {
    java.util.function.Function<String, String> field = name -> f[header.indexOf(name)];
    boolean launch = header.contains("reduce_launch_s") && header.contains("reduce_rounds");
    return new FrqRun(Shuffle.valueOf(field.apply("shuffle")), Long.parseLong(field.apply("input_bytes")),
        Long.parseLong(field.apply("shuffle_bytes")), Integer.parseInt(field.apply("map_waves")),
        Double.parseDouble(field.apply("start_s")), Double.parseDouble(field.apply("map_stage_s")),
        Double.parseDouble(field.apply("reduce_work_s")), Double.parseDouble(field.apply("job_s")),
        launch ? Double.parseDouble(field.apply("reduce_launch_s")) : 0,
        launch ? Integer.parseInt(field.apply("reduce_rounds")) : 1);
  }
}
