package org.scache.benchmarks.harness.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** A JVM running on one host of the {@link NodeNetwork}, its output in a log file. */
public final class HostProcess implements AutoCloseable {
  private final String name;
  private final Process process;
  private final Path log;

  private HostProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  /**
   * Starts {@code java jvmOptions -cp classPath mainClass args} on {@code host} with {@code env}
   * added to this process's environment, writing its output to {@code log}.
   */
  public static HostProcess start(String name, NodeNetwork.Host host, List<String> jvmOptions, List<Path> classPath,
      String mainClass, List<String> args, Map<String, String> env, Path log) throws IOException {
    List<String> java = new ArrayList<>();
    java.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    java.addAll(jvmOptions);
    java.add("-cp");
    java.add(String.join(":", classPath.stream().map(Path::toString).toList()));
    java.add(mainClass);
    java.addAll(args);
    Files.createDirectories(log.getParent());
    ProcessBuilder pb = new ProcessBuilder(NodeNetwork.onHost(host, java)).redirectErrorStream(true)
        .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    pb.environment().putAll(env);
    return new HostProcess(name, pb.start(), log);
  }

  public String name() {
    return name;
  }

  public Path log() {
    return log;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Waits for the process to exit; returns its exit code, or fails after {@code timeout}. */
  public int waitFor(Duration timeout) throws InterruptedException, IOException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IOException(name + " did not finish within " + timeout.toSeconds() + " s; see " + log);
    }
    return process.exitValue();
  }

  /**
   * Waits until {@code count} lines of the log match {@code line}; fails with the log's tail when the
   * process exits first or the time is up.
   */
  public void awaitLog(String what, Predicate<String> line, int count, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      if (matching(line) >= count) {
        return;
      }
      if (!process.isAlive()) {
        throw new IOException(name + " exited (code " + process.exitValue() + ") before " + what + "; its log "
            + log + " ends with:\n" + tail(40));
      }
      if (System.nanoTime() > deadline) {
        throw new IOException(name + ": no " + what + " within " + timeout.toSeconds() + " s; its log " + log
            + " ends with:\n" + tail(40));
      }
      Thread.sleep(200);
    }
  }

  private long matching(Predicate<String> line) throws IOException {
    if (!Files.exists(log)) {
      return 0;
    }
    try (var lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
      return lines.filter(line).count();
    }
  }

  public String tail(int n) throws IOException {
    if (!Files.exists(log)) {
      return "(no log)";
    }
    List<String> all = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
    return String.join("\n", all.subList(Math.max(0, all.size() - n), all.size()));
  }

  /** Stops the JVM: SIGTERM, and SIGKILL if it is still there after {@code grace}. */
  public void stop(Duration grace) {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** Kills the JVM at once (SIGKILL), as a crash would. */
  public void kill() {
    process.destroyForcibly();
  }

  @Override
  public void close() {
    stop(Duration.ofSeconds(15));
  }
}
