package org.scache.benchmarks.hadoop;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.scache.hadoop.frq.FrqJob;
import org.scache.hadoop.frq.Shuffle;
import org.scache.hadoop.frq.TaskSpan;

/**
 * The benchmarks' FRQ inputs: a measured job's {@link FrqJob}, with the reduces' launch read from their logs,
 * and its columns in the benchmark's {@code runs.csv}.
 */
final class FrqRuns {
  /** The CSV columns {@link #csvFields} fills, after a comma. */
  static final String CSV_COLUMNS = "input_bytes,shuffle_bytes,map_waves,start_s,reduce_work_s,reduce_launch_s,"
      + "reduce_rounds";

  private FrqRuns() {}

  /** {@code job}, whose input was {@code inputBytes}. */
  static FrqJob of(JobFigures job, long inputBytes) {
    long shuffleBytes = job.reduceShuffleBytes() > 0 ? job.reduceShuffleBytes() : job.scacheBytesPut();
    List<TaskSpan> spans = job.attempts().stream()
        .map(a -> new TaskSpan(a.map(), a.start(), a.shuffleFinish(), a.finish(), a.succeeded())).toList();
    return FrqJob.of(job.shuffle(), inputBytes, shuffleBytes, spans, job.submit(), job.finish(),
        job.medianLaunchSeconds());
  }

  static String csvFields(FrqJob job) {
    return String.format(Locale.ROOT, "%d,%d,%d,%.3f,%.3f,%.3f,%d", job.inputBytes(), job.shuffleBytes(),
        job.mapWaves(), job.startSeconds(), job.reduceWorkSeconds(), job.reduceLaunchSeconds(), job.reduceRounds());
  }

  /** The job of one line of the benchmark's {@code runs.csv}; one written before the launch term has none. */
  static FrqJob ofCsv(List<String> header, String[] f) {
    Function<String, String> field = name -> f[header.indexOf(name)];
    boolean launch = header.contains("reduce_launch_s") && header.contains("reduce_rounds");
    return new FrqJob(Shuffle.valueOf(field.apply("shuffle")), Long.parseLong(field.apply("input_bytes")),
        Long.parseLong(field.apply("shuffle_bytes")), Integer.parseInt(field.apply("map_waves")),
        Double.parseDouble(field.apply("start_s")), Double.parseDouble(field.apply("map_stage_s")),
        Double.parseDouble(field.apply("reduce_work_s")), Double.parseDouble(field.apply("job_s")),
        launch ? Double.parseDouble(field.apply("reduce_launch_s")) : 0,
        launch ? Integer.parseInt(field.apply("reduce_rounds")) : 1);
  }
}
