package org.scache.benchmarks.harness.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the short system commands the harness needs ({@code ip}, {@code tc}, {@code kill}) and says what failed. */
public final class Shell {
  private static final long TIMEOUT_SECONDS = 30;

  private Shell() {}

  /** Runs {@code command}; returns its output, or fails with its exit code and output. */
  public static String run(String... command) throws IOException {
    return runFor(TIMEOUT_SECONDS, command);
  }

  /** As {@link #run}, for a command that may take up to {@code seconds}. */
  public static String runFor(long seconds, String... command) throws IOException {
    Result r = exec(List.of(command), seconds);
    if (r.exit != 0) {
      throw new IOException(String.join(" ", command) + " failed (exit " + r.exit + "): " + r.output.strip());
    }
    return r.output;
  }

  /** Runs {@code command} for teardown: a failure (the thing is already gone) is not an error. */
  public static void quietly(String... command) {
    try {
      exec(List.of(command), TIMEOUT_SECONDS);
    } catch (IOException e) {
      // nothing left to undo
    }
  }

  /** Whether {@code command} ran and exited with 0. */
  public static boolean succeeds(String... command) {
    try {
      return exec(List.of(command), TIMEOUT_SECONDS).exit == 0;
    } catch (IOException e) {
      return false;
    }
  }

  private record Result(int exit, String output) {}

  private static Result exec(List<String> command, long timeoutSeconds) throws IOException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      p.getOutputStream().close();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(String.join(" ", command) + " did not finish in " + timeoutSeconds + " s");
      }
      return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running " + String.join(" ", command), e);
    }
  }
}
