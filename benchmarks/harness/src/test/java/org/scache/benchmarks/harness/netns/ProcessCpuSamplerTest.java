package org.scache.benchmarks.harness.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessCpuSamplerTest {
  @TempDir
  Path proc;

  private final AtomicLong now = new AtomicLong(1_000);

  private final ProcessCpuSampler.Roles roles = new ProcessCpuSampler.Roles() {
    @Override
    public String of(String commandLine) {
      return commandLine.contains("WorkerMain") ? "worker" : commandLine.contains("Executor") ? "executor" : null;
    }

    @Override
    public String ofThread(String processRole, String threadName) {
      return threadName.startsWith("scache-") ? "worker inside" : processRole;
    }
  };

  @Test
  void countsEachRolesCpuBetweenTwoTimesSplitIntoJitGcAndWork() throws IOException {
    process(10, "java", "-cp", "x", "org.scache.worker.WorkerMain");
    thread(10, 10, "java", 50, 10);
    thread(10, 11, "C2 CompilerThre", 100, 0);
    thread(10, 12, "GC Thread#0", 5, 5);
    process(20, "/usr/lib/jvm/bin/java", "ExecutorBackend");
    thread(20, 21, "Executor task launch worker-0", 10, 0);
    try (ProcessCpuSampler sampler = new ProcessCpuSampler(roles, 0, proc, now::get)) {
      sampler.sampleNow();
      now.set(2_000);
      thread(10, 10, "java", 80, 20); // +40 ticks
      thread(10, 11, "C2 CompilerThre", 150, 0); // +50
      thread(20, 21, "Executor task launch worker-0", 110, 100); // +200
      sampler.sampleNow();

      Map<ProcessCpuSampler.Use, Double> used = sampler.secondsBetween(1_000, 2_000);
      assertEquals(0.4, ProcessCpuSampler.seconds(used, "worker", ProcessCpuSampler.Part.WORK), 1e-9);
      assertEquals(0.5, ProcessCpuSampler.seconds(used, "worker", ProcessCpuSampler.Part.JIT), 1e-9);
      assertEquals(0.0, ProcessCpuSampler.seconds(used, "worker", ProcessCpuSampler.Part.GC), 1e-9);
      assertEquals(0.9, ProcessCpuSampler.seconds(used, "worker", null), 1e-9);
      assertEquals(2.0, ProcessCpuSampler.seconds(used, "executor", null), 1e-9);
    }
  }

  @Test
  void aProcessStartedBetweenSamplesCountsAllItsCpuAndOtherProgramsAreLeftOut() throws IOException {
    process(30, "python3", "WorkerMain.py");
    thread(30, 30, "python3", 500, 0);
    try (ProcessCpuSampler sampler = new ProcessCpuSampler(roles, 0, proc, now::get)) {
      sampler.sampleNow();
      now.set(2_000);
      process(40, "java", "org.scache.worker.WorkerMain");
      thread(40, 41, "scache-worker-io-1", 30, 0);
      thread(40, 42, "G1 Refine#0", 7, 0);
      sampler.sampleNow();

      Map<ProcessCpuSampler.Use, Double> used = sampler.secondsBetween(1_000, 2_000);
      assertEquals(0.3, ProcessCpuSampler.seconds(used, "worker inside", ProcessCpuSampler.Part.WORK), 1e-9);
      assertEquals(0.07, ProcessCpuSampler.seconds(used, "worker", ProcessCpuSampler.Part.GC), 1e-9);
      assertEquals(2, used.size(), used.toString());
    }
  }

  @Test
  void aThreadThatEndedIsForgottenAndATimeBeforeAnySampleCountsNothing() throws IOException {
    process(10, "java", "WorkerMain");
    thread(10, 11, "short-lived", 20, 0);
    try (ProcessCpuSampler sampler = new ProcessCpuSampler(roles, 0, proc, now::get)) {
      assertTrue(sampler.secondsBetween(0, 5_000).isEmpty());
      sampler.sampleNow();
      Files.delete(proc.resolve("10/task/11/stat"));
      Files.delete(proc.resolve("10/task/11"));
      now.set(2_000);
      sampler.sampleNow();
      // a new thread reusing the id counts from zero, not from what the ended one had used
      thread(10, 11, "reused", 5, 0);
      now.set(3_000);
      sampler.sampleNow();
      assertEquals(0.05, ProcessCpuSampler.seconds(sampler.secondsBetween(1_000, 3_000), "worker", null), 1e-9);
    }
  }

  private void process(int pid, String... args) throws IOException {
    Path dir = Files.createDirectories(proc.resolve(Integer.toString(pid)).resolve("task"));
    Files.write(dir.getParent().resolve("cmdline"), (String.join("\0", args) + "\0").getBytes(StandardCharsets.UTF_8));
  }

  private void thread(int pid, int tid, String name, long utime, long stime) throws IOException {
    Path dir = Files.createDirectories(proc.resolve(pid + "/task/" + tid));
    // fields after the name: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime ...
    Files.writeString(dir.resolve("stat"), tid + " (" + name + ") S 1 1 1 0 -1 4194560 10 0 0 0 " + utime + " "
        + stime + " 0 0 20 0 1 0 100 0 0\n");
  }
}
