package org.scache.benchmarks.harness.netns;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/** Hands every new line of a growing log file to a consumer, from a thread of its own, until closed. */
public final class LogFollower implements AutoCloseable {
  private final Thread thread;
  private volatile boolean closed;

  public LogFollower(Path log, Consumer<String> lines) {
    thread = new Thread(() -> follow(log, lines), "follow-" + log.getFileName());
    thread.setDaemon(true);
    thread.start();
  }

  private void follow(Path log, Consumer<String> lines) {
    long position = 0;
    StringBuilder partial = new StringBuilder();
    boolean last = false;
    while (!last) {
      last = closed;
      try {
        if (Files.exists(log)) {
          try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
            if (f.length() > position) {
              f.seek(position);
              byte[] buf = new byte[(int) Math.min(1 << 20, f.length() - position)];
              f.readFully(buf);
              position += buf.length;
              partial.append(new String(buf, StandardCharsets.UTF_8));
              int nl;
              while ((nl = partial.indexOf("\n")) >= 0) {
                lines.accept(partial.substring(0, nl));
                partial.delete(0, nl + 1);
              }
              last = false;
            }
          }
        }
        if (!last) {
          Thread.sleep(200);
        }
      } catch (IOException e) {
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
