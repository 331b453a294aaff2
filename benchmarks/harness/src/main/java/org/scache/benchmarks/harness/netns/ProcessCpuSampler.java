package org.scache.benchmarks.harness.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * Reads the CPU time of every thread of this machine's JVMs from {@code /proc} every {@code periodMs}, from a
 * thread of its own, and keeps per sample the CPU each role's processes have used since sampling began, split
 * into JIT compilation, garbage collection and the rest: which process, and which part of it, spent a phase
 * of a job's CPU. On a machine whose cores every process shares, a phase is as long as the CPU all of them
 * use, so this is where a phase's extra time comes from.
 *
 * <p>A thread's CPU is counted from one sample to the next; a thread that ends between two samples loses what
 * it used since the last one (at most a period's worth), a thread first seen counts all it used before.
 */
public final class ProcessCpuSampler implements AutoCloseable {
  /** {@code /proc}'s clock ticks per second (USER_HZ), 100 on Linux. */
  private static final double TICKS_PER_SECOND = 100;

  /** What a thread of a JVM does. */
  public enum Part {
    /** The JIT compilers' threads. */
    JIT,
    /** The garbage collector's threads and the VM thread, which runs the collector's pauses. */
    GC,
    /** Every other thread: the program's own work. */
    WORK;

    static Part of(String threadName) {
      if (threadName.startsWith("C1 CompilerThre") || threadName.startsWith("C2 CompilerThre")) {
        return JIT;
      }
      if (threadName.startsWith("GC Thread") || threadName.startsWith("G1 ") || threadName.equals("VM Thread")) {
        return GC;
      }
      return WORK;
    }
  }

  /** How the processes sampled are named. */
  public interface Roles {
    /** The role of a JVM given its command line (arguments joined by spaces), or null to leave it out. */
    String of(String commandLine);

    /** The role a thread of a process of {@code processRole} counts for; the process's unless overridden. */
    default String ofThread(String processRole, String threadName) {
      return processRole;
    }
  }

  /** CPU seconds of a role's processes in one part. */
  public record Use(String role, Part part) {}

  private record Sample(long time, Map<Use, Long> ticks) {}

  private final Roles roles;
  private final long periodMs;
  private final Path proc;
  private final LongSupplier clock;
  private final Map<Long, String> roleByPid = new HashMap<>();
  private final Map<Long, Long> ticksByThread = new HashMap<>();
  private final Map<Use, Long> total = new HashMap<>();
  private final List<Sample> samples = new ArrayList<>();
  private final Thread thread;
  private volatile boolean closed;

  public ProcessCpuSampler(Roles roles, long periodMs) {
    this(roles, periodMs, Path.of("/proc"), System::currentTimeMillis);
  }

  /** Samples {@code proc} (a {@code /proc}) at {@code clock}'s times; no sampling thread when {@code periodMs} is 0. */
  ProcessCpuSampler(Roles roles, long periodMs, Path proc, LongSupplier clock) {
    this.roles = roles;
    this.periodMs = periodMs;
    this.proc = proc;
    this.clock = clock;
    thread = new Thread(this::run, "process-cpu-sampler");
    thread.setDaemon(true);
    if (periodMs > 0) {
      thread.start();
    }
  }

  private void run() {
    while (!closed) {
      sampleNow();
      try {
        Thread.sleep(periodMs);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Takes one sample (the sampling thread calls it every period). */
  void sampleNow() {
    long now = clock.getAsLong();
    Set<Long> seenPids = new HashSet<>();
    Set<Long> seenThreads = new HashSet<>();
    try (DirectoryStream<Path> pids = Files.newDirectoryStream(proc, p -> isNumber(p.getFileName().toString()))) {
      for (Path pidDir : pids) {
        long pid = Long.parseLong(pidDir.getFileName().toString());
        seenPids.add(pid);
        String role = roleByPid.computeIfAbsent(pid, p -> roleOf(pidDir));
        if (!role.isEmpty()) {
          sampleThreads(pid, pidDir, role, seenThreads);
        }
      }
    } catch (IOException | RuntimeException e) {
      // a sample that cannot be taken is skipped; the next one counts what this one missed
      return;
    }
    roleByPid.keySet().retainAll(seenPids);
    ticksByThread.keySet().retainAll(seenThreads);
    synchronized (samples) {
      samples.add(new Sample(now, Map.copyOf(total)));
    }
  }

  private String roleOf(Path pidDir) {
    try {
      String[] args = new String(Files.readAllBytes(pidDir.resolve("cmdline")), StandardCharsets.UTF_8).split("\0");
      if (args.length == 0 || !(args[0].equals("java") || args[0].endsWith("/java"))) {
        return "";
      }
      String role = roles.of(String.join(" ", args));
      return role == null ? "" : role;
    } catch (IOException | RuntimeException e) {
      return ""; // gone already
    }
  }

  private void sampleThreads(long pid, Path pidDir, String role, Set<Long> seenThreads) {
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(pidDir.resolve("task"))) {
      for (Path task : tasks) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"), StandardCharsets.UTF_8);
        } catch (IOException e) {
          continue; // the thread ended
        }
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0 || close < open) {
          continue;
        }
        String name = stat.substring(open + 1, close);
        String[] f = stat.substring(close + 2).split(" ");
        // after the name: state(0) ... utime(11) stime(12)
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        long key = pid << 32 | Long.parseLong(task.getFileName().toString());
        seenThreads.add(key);
        Long before = ticksByThread.put(key, ticks);
        long used = ticks - (before == null ? 0 : before);
        if (used > 0) {
          total.merge(new Use(roles.ofThread(role, name), Part.of(name)), used, Long::sum);
        }
      }
    } catch (IOException | RuntimeException e) {
      // the process ended
    }
  }

  /** CPU seconds each role and part used between {@code from} and {@code to} (epoch ms), from the nearest samples. */
  public Map<Use, Double> secondsBetween(long from, long to) {
    Map<Use, Long> a;
    Map<Use, Long> b;
    synchronized (samples) {
      a = nearest(from);
      b = nearest(to);
    }
    Map<Use, Double> out = new TreeMap<>((x, y) -> x.role().equals(y.role()) ? x.part().compareTo(y.part())
        : x.role().compareTo(y.role()));
    b.forEach((use, ticks) -> {
      long used = ticks - a.getOrDefault(use, 0L);
      if (used > 0) {
        out.put(use, used / TICKS_PER_SECOND);
      }
    });
    return out;
  }

  /** The role's seconds in every part, or in {@code part} only. */
  public static double seconds(Map<Use, Double> use, String role, Part part) {
    return use.entrySet().stream().filter(e -> e.getKey().role().equals(role)
        && (part == null || e.getKey().part() == part)).mapToDouble(Map.Entry::getValue).sum();
  }

  private Map<Use, Long> nearest(long time) {
    Sample best = null;
    for (Sample s : samples) {
      if (best == null || Math.abs(s.time() - time) < Math.abs(best.time() - time)) {
        best = s;
      }
    }
    return best == null ? Map.of() : best.ticks();
  }

  private static boolean isNumber(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (!Character.isDigit(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
  }
}
