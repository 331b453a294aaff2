package org.scache.hadoop.frq;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;
import org.scache.hadoop.frq.JobHistoryReader.HistoryJob;

/**
 * Predicts, from a finished MapReduce job's history, how long the job takes on Hadoop's shuffle and through
 * SCache (the FRQ model of the SCache paper, Section V), so that an operator can tell which jobs gain before
 * switching them. Run on a Hadoop client, with the cluster's configuration:
 *
 * <pre>
 *   hadoop jar hadoop-adapter-VERSION.jar [--link-mbit N] [--nodes N] [--launch-seconds S]
 *       [--k-hadoop K] [--k-scache K] JOB_ID|HISTORY_FILE...
 * </pre>
 *
 * Exit codes: {@value #OK} every job predicted; {@value #UNREADABLE} a job's history was not found or not
 * readable; {@value #USAGE} bad arguments.
 */
public final class FrqCommand {
  static final int OK = 0;
  static final int UNREADABLE = 1;
  static final int USAGE = 2;

  private static final String USAGE_TEXT = """
      usage: hadoop jar hadoop-adapter.jar [OPTIONS] JOB_ID|HISTORY_FILE...
      Predicts each finished job's time on Hadoop's shuffle and through SCache from its history (the FRQ model).
        JOB_ID              a job (job_1700000000000_0001), found in the history server's directories
        HISTORY_FILE        a job's .jhist file, on any file system the client reaches
        --link-mbit N       each node's network link, Mbit/s (default: no link limits the shuffle, and both
                            shuffles are predicted the same time)
        --nodes N           nodes the shuffle crosses between (default: the hosts the job's tasks ran on)
        --launch-seconds S  a reduce's launch, container start to its shuffle's beginning (default 0)
        --k-hadoop K        how much of the shuffle Hadoop's reduces wait for (default 0.6, the paper's)
        --k-scache K        the same with SCache (default 0.5, the paper's)
      Exit codes: 0 predicted, 1 a job's history not found or unreadable, 2 usage.""";

  private FrqCommand() {}

  public static void main(String[] args) {
    System.exit(run(args, new JobConf(), System.out, System.err));
  }

  /** Runs the command with the cluster configuration {@code conf}; returns its exit code. */
  public static int run(String[] args, Configuration conf, PrintStream out, PrintStream err) {
    Settings settings;
    try {
      settings = Settings.parse(args);
    } catch (IllegalArgumentException e) {
      err.println("frq: " + e.getMessage());
      err.println(USAGE_TEXT);
      return USAGE;
    }
    if (settings.help) {
      out.println(USAGE_TEXT);
      return OK;
    }
    int code = OK;
    for (String job : settings.jobs) {
      try {
        HistoryJob read = JobHistoryReader.of(JobHistoryReader.parse(locate(job, conf), conf),
            settings.launchSeconds);
        out.print(report(read, settings));
      } catch (IOException | IllegalArgumentException e) {
        err.println("frq: " + job + ": " + e.getMessage());
        code = UNREADABLE;
      }
    }
    return code;
  }

  private static Path locate(String job, Configuration conf) throws IOException {
    if (!job.startsWith("job_")) {
      return new Path(job);
    }
    JobID id;
    try {
      id = JobID.forName(job);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a job id: " + job);
    }
    Optional<Path> file = JobHistoryReader.find(id, conf);
    return file.orElseThrow(() -> new IOException("no history file of " + job + " under "
        + conf.get("mapreduce.jobhistory.done-dir", "the history server's directories")));
  }

  /** What the model says of one job, as text. */
  static String report(HistoryJob read, Settings settings) {
    FrqJob job = read.job();
    int nodes = settings.nodes > 0 ? settings.nodes : read.nodes();
    double speed = shuffleSpeed(settings.linkMbit, nodes);
    FrqFit fit = FrqFit.of(job, speed);
    FrqModel m = fit.model();
    double hadoop = fit.predictedSeconds(Shuffle.HADOOP, settings.kHadoop);
    double scache = fit.predictedSeconds(Shuffle.SCACHE, settings.kScache);
    double own = job.shuffle() == Shuffle.HADOOP ? hadoop : scache;
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "%s (%s) ran on %s: %d maps in %s, %d reduces in %s, input %s, "
        + "shuffle %s (R %.2f)%n", read.id(), read.name(), job.shuffle().label(), read.maps(),
        count(job.mapWaves(), "wave"), read.reduces(), count(job.reduceRounds(), "round"), bytes(job.inputBytes()),
            bytes(job.shuffleBytes()), m.conversionRate()));
    sb.append(String.format(Locale.ROOT,
        "  measured %.1f s: start %.1f s, map stage %.1f s, reduces' own work %.1f s%n",
        job.jobSeconds(), job.startSeconds(), job.mapStageSeconds(), job.reduceWorkSeconds()));
    if (Double.isInfinite(speed)) {
      sb.append(String.format(Locale.ROOT, "  no link limit given (--link-mbit) or one node: the shuffle takes no time "
          + "in the model, and both shuffles are predicted the same%n"));
    } else {
      sb.append(String.format(Locale.ROOT, "  links of %s Mbit/s on %d nodes carry %s/s of shuffle; the maps make %s/s "
          + "of it: %s%n", number(settings.linkMbit), nodes, bytes((long) speed), bytes((long) (m.mapSpeed()
          * m.conversionRate())), m.scacheCase() == FrqModel.Case.SHUFFLE_BOUND
              ? "the links are the bound, SCache sends during the maps without pause (the paper's Fig. 10a)"
              : "the maps are the bound, SCache sends each wave's output during the next (Fig. 10b)"));
    }
    sb.append(String.format(Locale.ROOT,
        "  predicted: %.1f s on Hadoop's shuffle, %.1f s through SCache, SCache / Hadoop "
        + "%.2f; the model is off by %+.1f%% on this job's own %.1f s%n", hadoop, scache, scache / hadoop,
        100 * (own - job.jobSeconds()) / job.jobSeconds(), job.jobSeconds()));
    return sb.toString();
  }

  /**
   * The shuffle's bytes per second that {@code nodes} links of {@code linkMbit} carry together: of a shuffle
   * spread evenly over the nodes, a share {@code (n − 1) / n} crosses a link. Unlimited without a link rate, or
   * on one node.
   */
  static double shuffleSpeed(double linkMbit, int nodes) {
    if (!(linkMbit > 0) || nodes < 2) {
      return Double.POSITIVE_INFINITY;
    }
    return nodes * linkMbit * 1e6 / 8 * nodes / (nodes - 1.0);
  }

  private static String bytes(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = bytes;
    int u = 0;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return u == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  private static String count(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  private static String number(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  /** The command's options and jobs. */
  static final class Settings {
    final List<String> jobs = new ArrayList<>();
    double linkMbit;
    int nodes;
    double launchSeconds;
    double kHadoop = FrqModel.K_HADOOP;
    double kScache = FrqModel.K_SCACHE;
    boolean help;

    static Settings parse(String[] args) {
      Settings s = new Settings();
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--link-mbit" -> s.linkMbit = positive(args, ++i, "--link-mbit");
          case "--nodes" -> s.nodes = (int) positive(args, ++i, "--nodes");
          case "--launch-seconds" -> s.launchSeconds = notNegative(args, ++i, "--launch-seconds");
          case "--k-hadoop" -> s.kHadoop = notNegative(args, ++i, "--k-hadoop");
          case "--k-scache" -> s.kScache = notNegative(args, ++i, "--k-scache");
          case "-h", "--help" -> s.help = true;
          default -> {
            if (args[i].startsWith("--")) {
              throw new IllegalArgumentException("unknown option " + args[i]);
            }
            s.jobs.add(args[i]);
          }
        }
      }
      if (s.jobs.isEmpty() && !s.help) {
        throw new IllegalArgumentException("no job given");
      }
      return s;
    }

    private static double positive(String[] args, int i, String option) {
      double v = number(args, i, option);
      if (!(v > 0)) {
        throw new IllegalArgumentException(option + " must be above 0: " + args[i]);
      }
      return v;
    }

    private static double notNegative(String[] args, int i, String option) {
      double v = number(args, i, option);
      if (!(v >= 0)) {
        throw new IllegalArgumentException(option + " must not be negative: " + args[i]);
      }
      return v;
    }

    private static double number(String[] args, int i, String option) {
      if (i >= args.length) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      try {
        double v = Double.parseDouble(args[i]);
        if (Double.isInfinite(v)) {
          throw new NumberFormatException();
        }
        return v;
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(option + " takes a number: " + args[i]);
      }
    }
  }
}
