package org.scache.dist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * One SCache daemon ({@code MasterMain} or {@code WorkerMain}) running as a child JVM with this
 * JVM's classpath, its output in a log file. Started, it has printed its "listening on" line.
 */
public final class DaemonProcess implements AutoCloseable {
  private static final String LISTENING = "listening on ";

  private final String name;
  private final Process process;
  private final Path log;
  private final String listeningLine;

  private DaemonProcess(String name, Process process, Path log, String listeningLine) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.listeningLine = listeningLine;
  }

  /**
   * Starts {@code mainClass --conf conf} with {@code jvmArgs} (options and {@code -D} overrides) and
   * waits until it listens; fails with the tail of its log when it exits or does not listen in time.
   */
  public static DaemonProcess start(String name, String mainClass, Path conf, List<String> jvmArgs, Path logDir,
      Path pidDir, Duration timeout) throws IOException, InterruptedException {
    Files.createDirectories(logDir);
    Files.createDirectories(pidDir);
    Path log = logDir.resolve(name + ".log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmArgs);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass);
    command.add("--conf");
    command.add(conf.toString());
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
    Files.writeString(pidDir.resolve(name + ".pid"), p.pid() + "\n", StandardCharsets.UTF_8);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String line = findListeningLine(log);
      if (line != null) {
        return new DaemonProcess(name, p, log, line);
      }
      if (!p.isAlive()) {
        throw new IllegalStateException(name + " exited with code " + p.exitValue()
            + " before listening; last lines of "
            + log + ":\n" + tail(log, 30));
      }
      if (System.nanoTime() > deadline) {
        stop(p);
        throw new IllegalStateException(name + " did not listen within " + timeout.toSeconds() + " s; last lines of "
            + log + ":\n" + tail(log, 30));
      }
      Thread.sleep(50);
    }
  }

  private static String findListeningLine(Path log) throws IOException {
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      if (line.contains(LISTENING)) {
        return line;
      }
    }
    return null;
  }

  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  public Path log() {
    return log;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** What the daemon printed when it started listening. */
  public String listeningLine() {
    return listeningLine;
  }

  /** The port it listens on, from its "listening on" line ({@code ... port N} or {@code ... host:N}). */
  public int port() {
    return portOf(listeningLine);
  }

  public static int portOf(String listeningLine) {
    String rest = listeningLine.substring(listeningLine.indexOf(LISTENING) + LISTENING.length()).trim();
    int cut = Math.max(rest.lastIndexOf(':'), rest.lastIndexOf(' '));
    return Integer.parseInt(rest.substring(cut + 1).trim());
  }

  /** Resident set size now ({@code VmRSS}), in bytes, where /proc is readable. */
  public OptionalLong residentBytes() {
    return procStatus("VmRSS:");
  }

  /** Peak resident set size ({@code VmHWM}), in bytes, where /proc is readable. */
  public OptionalLong peakResidentBytes() {
    return procStatus("VmHWM:");
  }

  /** Resident shared memory ({@code RssShmem}): the touched pages of the worker's reserve. */
  public OptionalLong residentSharedBytes() {
    return procStatus("RssShmem:");
  }

  /** Resident anonymous memory ({@code RssAnon}): Java heap, direct buffers, thread stacks, code. */
  public OptionalLong residentAnonymousBytes() {
    return procStatus("RssAnon:");
  }

  private OptionalLong procStatus(String field) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
        if (line.startsWith(field)) {
          String[] parts = line.substring(field.length()).trim().split("\\s+");
          return OptionalLong.of(Long.parseLong(parts[0]) * 1024);
        }
      }
    } catch (IOException | RuntimeException e) {
      // no /proc here, or the process is gone
    }
    return OptionalLong.empty();
  }

  /** The last {@code lines} lines of the log. */
  public String logTail(int lines) {
    return tail(log, lines);
  }

  private static String tail(Path log, int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e.getMessage() + ")";
    }
  }

  /** Sends SIGTERM and returns at once. */
  public void requestStop() {
    process.destroy();
  }

  /** SIGTERM, then SIGKILL after 10 s. */
  @Override
  public void close() {
    stop(process);
  }

  private static void stop(Process p) {
    if (!p.isAlive()) {
      return;
    }
    p.destroy();
    try {
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
