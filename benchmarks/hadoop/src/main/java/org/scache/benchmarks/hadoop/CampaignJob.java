package org.scache.benchmarks.hadoop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.hadoop.MiniScacheYarnCluster;
import org.scache.hadoop.ScacheJob;
import org.scache.hadoop.frq.Shuffle;

/**
 * One job of the fault campaign ({@link FaultCampaign}), run as the job client on the namespaced
 * cluster's control host: TeraSort or a word count, on Hadoop's shuffle (to make the expected output)
 * or through SCache, its output then compared byte for byte with the expected one. Writes the input
 * first when it is missing. Its last line says what came of it, for the campaign to read:
 * {@code CAMPAIGN same SECONDS}, {@code CAMPAIGN different WHY} (exit 3) or {@code CAMPAIGN failed WHY}
 * (exit 2).
 */
public final class CampaignJob {
  private CampaignJob() {}

  public static void main(String[] args) throws Exception {
    Options options = new Options("One job of the fault campaign, on the namespaced cluster",
        new Options.Option("cluster", "", "the namespaced cluster's run directory"),
        new Options.Option("job", "terasort", "terasort or wordcount"),
        new Options.Option("size", "192m", "input size"),
        new Options.Option("reduces", "6", "reduces"),
        new Options.Option("shuffle", "scache", "hadoop or scache"),
        new Options.Option("input", "", "input directory (written when missing)"),
        new Options.Option("output", "", "output directory"),
        new Options.Option("expected", "", "the expected output; empty: nothing compared"));
    if (!options.parse(args)) {
      return;
    }
    Path log = Path.of(options.get("output") + ".log");
    Console console = Console.start(log);
    int code;
    try (ConfiguredCluster cluster = ConfiguredCluster.open(Path.of(options.get("cluster")))) {
      TerasortRunner runner = new TerasortRunner(cluster, console, "");
      Path input = Path.of(options.get("input"));
      Path output = Path.of(options.get("output"));
      boolean words = options.get("job").equals("wordcount");
      if (!Files.isDirectory(input)) {
        long bytes = ByteSize.parse(options.get("size"));
        if (words) {
          TextInput.write(bytes, input);
        } else {
          runner.generate(bytes, input);
        }
      }
      Shuffle shuffle = options.get("shuffle").equals("hadoop") ? Shuffle.HADOOP : Shuffle.SCACHE;
      JobConf conf = cluster.jobConf();
      conf.setInt(MRJobConfig.NUM_REDUCES, options.getInt("reduces"));
      if (!words) {
        // TeraSort's partition file is a relative cache file: resolve it against the job's directory
        conf.set(MRJobConfig.WORKING_DIR, ".");
      }
      if (shuffle == Shuffle.SCACHE && !ScacheJob.enable(conf)) {
        throw new IllegalStateException("the SCache master is not usable; see " + log);
      }
      MiniScacheYarnCluster.deleteRecursively(output);
      long started = System.nanoTime();
      // the job alone: no figures read from the job history, which the history server may be moving
      WatchedTool.run((words ? "word count" : "TeraSort") + " (" + shuffle.label() + ")",
          words ? new WordCountTool() : new TeraSort(), conf,
          new String[] {input.toUri().toString(), output.toUri().toString()}, console);
      double seconds = Console.secondsSince(started);
      code = compare(options.get("expected"), output, seconds, console);
    } catch (Exception e) {
      console.print("CAMPAIGN failed " + oneLine(e) + "\n");
      code = 2;
    }
    System.exit(code);
  }

  /** Compares the job's output with the expected one (if any) and says so; the exit code. */
  private static int compare(String expected, Path output, double seconds, Console console) throws IOException {
    if (!expected.isBlank()) {
      try {
        SameOutput.check(Path.of(expected), output);
      } catch (IllegalStateException e) {
        console.print("CAMPAIGN different " + oneLine(e) + "\n");
        return 3;
      }
    }
    console.print(String.format(Locale.ROOT, "CAMPAIGN same %.1f%n", seconds));
    return 0;
  }

  private static String oneLine(Throwable e) {
    return String.valueOf(e).replace('\n', ' ');
  }
}
