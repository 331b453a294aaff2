package org.scache.benchmarks.hadoop;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.SimpleFormatter;
import java.util.logging.StreamHandler;
import org.apache.log4j.PropertyConfigurator;
import org.scache.benchmarks.harness.netns.Directories;

/**
 * Where the demo and the benchmark print: this JVM's standard output as it was at start, one line per
 * phase, each with the time since start. Everything else this JVM would print (Hadoop's and SCache's
 * logs through log4j, java.util.logging, and what the daemons and the examples write to standard output
 * and error) goes to one log file instead, so the report stays readable.
 */
public final class Console {
  private final PrintStream out;
  private final Path logFile;
  private final long start = System.nanoTime();

  private Console(PrintStream out, Path logFile) {
    this.out = out;
    this.logFile = logFile;
  }

  /** Sends all logging and stray output of this JVM to {@code logFile} (appended) and returns the console. */
  public static Console start(Path logFile) throws IOException {
    Files.createDirectories(logFile.toAbsolutePath().getParent());
    PrintStream original = System.out;
    PrintStream log = new PrintStream(new FileOutputStream(logFile.toFile(), true), true, StandardCharsets.UTF_8);

    Properties log4j = new Properties();
    log4j.setProperty("log4j.reset", "true");
    log4j.setProperty("log4j.rootLogger", "INFO, file");
    log4j.setProperty("log4j.appender.file", "org.apache.log4j.FileAppender");
    log4j.setProperty("log4j.appender.file.File", logFile.toAbsolutePath().toString());
    log4j.setProperty("log4j.appender.file.Append", "true");
    log4j.setProperty("log4j.appender.file.layout", "org.apache.log4j.PatternLayout");
    log4j.setProperty("log4j.appender.file.layout.ConversionPattern", "%d{HH:mm:ss,SSS} %p [%t] %c{2}: %m%n");
    // per-request and per-heartbeat chatter of the daemons; warnings still reach the log
    for (String quiet : new String[] {"org.apache.hadoop.yarn.server.resourcemanager.scheduler",
        "org.apache.hadoop.yarn.server.nodemanager.containermanager.monitor", "org.apache.hadoop.ipc",
        "org.apache.hadoop.yarn.server.resourcemanager.RMAuditLogger",
        "org.apache.hadoop.yarn.server.nodemanager.NMAuditLogger", "org.eclipse.jetty"}) {
      log4j.setProperty("log4j.logger." + quiet, "WARN");
    }
    PropertyConfigurator.configure(log4j);

    LogManager.getLogManager().reset();
    java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
    StreamHandler julToLog = new StreamHandler(log, new SimpleFormatter()) {
      @Override
      public synchronized void publish(java.util.logging.LogRecord record) {
        super.publish(record);
        flush();
      }
    };
    julToLog.setLevel(Level.WARNING);
    root.addHandler(julToLog);
    root.setLevel(Level.WARNING);

    System.setOut(log);
    System.setErr(log);
    return new Console(original, logFile);
  }

  /**
   * Empties {@code results} (a benchmark's results of its last invocation), then starts the console with its log
   * file {@code results/<name>.log}.
   */
  public static Console startIn(Path results, String name) throws IOException {
    Directories.deleteRecursively(results);
    Files.createDirectories(results);
    return start(results.resolve(name + ".log"));
  }

  public Path logFile() {
    return logFile;
  }

  /** A line with the time since start in front. */
  public void phase(String text) {
    out.printf("[%s] %s%n", clock(), text);
  }

  /** A line under the last phase line. */
  public void detail(String text) {
    out.printf("        %s%n", text);
  }

  /** Lines as they are, for the report. */
  public void print(String text) {
    out.print(text.endsWith("\n") ? text : text + "\n");
    out.flush();
  }

  /**
   * Ends a benchmark that succeeded: writes {@code summary} into {@code results/summary.txt}, prints it, and
   * the time the benchmark took since {@code startedNanos}.
   */
  public void finish(Path results, String summary, long startedNanos) throws IOException {
    Files.writeString(results.resolve("summary.txt"), summary, StandardCharsets.UTF_8);
    print("\n" + summary);
    phase(String.format(Locale.ROOT, "benchmark done in %.0f s; every run: %s", secondsSince(startedNanos),
        results.resolve("runs.csv")));
  }

  /** Reports a benchmark that failed with {@code e}; its details are in the log file. */
  public void failed(Throwable e) {
    print("\nBENCHMARK FAILED: " + e);
    e.printStackTrace();
    print("details: " + logFile);
  }

  /** Seconds since {@code nanoTime}. */
  public static double secondsSince(long nanoTime) {
    return (System.nanoTime() - nanoTime) / 1e9;
  }

  private String clock() {
    long s = (System.nanoTime() - start) / 1_000_000_000L;
    return String.format(Locale.ROOT, "%2d:%02d", s / 60, s % 60);
  }
}
