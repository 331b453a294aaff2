package org.scache.benchmarks.harness.netns;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads every node's link counters ({@link NodeNetwork#counters}) every {@code periodMs} from a thread
 * of its own: the bytes each node received and sent over time.
 */
public final class LinkSampler implements AutoCloseable {
  /** The counters of one node at one time (epoch milliseconds). */
  public record Sample(long time, String node, long received, long sent) {}

  private final NodeNetwork network;
  private final long periodMs;
  private final List<Sample> samples = new ArrayList<>();
  private final Thread thread;
  private volatile boolean closed;

  public LinkSampler(NodeNetwork network, long periodMs) {
    this.network = network;
    this.periodMs = periodMs;
    thread = new Thread(this::run, "link-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (!closed) {
      long now = System.currentTimeMillis();
      for (NodeNetwork.Host node : network.nodes()) {
        try {
          long[] c = network.counters(node);
          synchronized (samples) {
            samples.add(new Sample(now, node.name(), c[0], c[1]));
          }
        } catch (IOException | RuntimeException e) {
          // a link that is gone has nothing to count
        }
      }
      try {
        Thread.sleep(periodMs);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  public List<Sample> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  /** Bytes all nodes sent between {@code from} and {@code to} (epoch ms), from the samples nearest to them. */
  public static long sentBetween(List<Sample> samples, List<String> nodes, long from, long to) {
    long total = 0;
    for (String node : nodes) {
      Sample a = nearest(samples, node, from);
      Sample b = nearest(samples, node, to);
      if (a != null && b != null && b.sent() >= a.sent()) {
        total += b.sent() - a.sent();
      }
    }
    return total;
  }

  /**
   * The fastest all nodes sent together over any {@code windowMs} between {@code from} and {@code to}
   * (epoch ms), in bytes per second: what the links carried when they were busiest (0 without samples).
   */
  public static double peakSendRate(List<Sample> samples, List<String> nodes, long from, long to, long windowMs) {
    List<Sample> within = samples.stream().filter(s -> s.time() >= from - windowMs && s.time() <= to + windowMs)
        .toList();
    double best = 0;
    for (long t = from; t + windowMs <= to; t += Math.max(1, windowMs / 8)) {
      best = Math.max(best, sentBetween(within, nodes, t, t + windowMs) * 1000.0 / windowMs);
    }
    return best;
  }

  private static Sample nearest(List<Sample> samples, String node, long time) {
    Sample best = null;
    for (Sample s : samples) {
      if (s.node().equals(node) && (best == null || Math.abs(s.time() - time) < Math.abs(best.time() - time))) {
        best = s;
      }
    }
    return best;
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    try {
      thread.join(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
