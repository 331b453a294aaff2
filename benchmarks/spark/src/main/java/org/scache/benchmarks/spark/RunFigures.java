package org.scache.benchmarks.spark;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

/**
 * One application's run of one program on one shuffle, as its driver measured it: the output's digest,
 * the job's, the map stage's and the reduce stage's times (epoch ms), and the reduce tasks' shuffle
 * reads. {@code onPlacedHost} counts the reduce tasks that ran on the host SCache placed them on (-1 on
 * Spark's sort shuffle, which places nothing, and for a program of several shuffles); {@code processLocalTasks}
 * and {@code anyHostTasks} count the tasks Spark launched with their data in the executor's memory, and those it
 * launched wherever a slot was free after its locality wait (its preferred hosts busy or none given).
 */
record RunFigures(String program, String shuffle, String output, long jobStart, long jobEnd, long mapStart,
    long mapEnd, long reduceStart, long reduceEnd, long shuffleBytes, int reduceTasks, long fetchWaitMedianMs,
    long fetchWaitMaxMs, long fetchWaitTotalMs, long localBytes, long remoteBytes, int onPlacedHost, long mapCpuMs,
    long reduceCpuMs, int processLocalTasks, int anyHostTasks) {

  long jobMs() {
    return jobEnd - jobStart;
  }

  long mapStageMs() {
    return mapEnd - mapStart;
  }

  long reduceStageMs() {
    return reduceEnd - reduceStart;
  }

  /**
   * The figures of the stages that ran between {@code jobStart} and {@code jobEnd}: the map stages are
   * those that wrote shuffle data, the reduce stages those that read it. {@code placedHost} gives the
   * host SCache placed a reduce partition on, or null.
   */
  static RunFigures of(String program, String shuffle, String output, long jobStart, long jobEnd,
      StageFigures figures, Function<Integer, String> placedHost) {
    List<StageFigures.Stage> maps = figures.stages().stream().filter(s -> s.shuffleWriteBytes() > 0).toList();
    List<StageFigures.Stage> reduces = figures.stages().stream().filter(s -> s.shuffleReadBytes() > 0).toList();
    List<Integer> reduceIds = reduces.stream().map(StageFigures.Stage::id).toList();
    List<Integer> mapIds = maps.stream().map(StageFigures.Stage::id).toList();
    List<StageFigures.Task> reduceTasks = figures.tasks().stream()
        .filter(t -> t.successful() && reduceIds.contains(t.stageId())).toList();
    long[] waits = reduceTasks.stream().mapToLong(StageFigures.Task::fetchWaitMs).sorted().toArray();
    int onPlaced = -1;
    if (placedHost != null) {
      onPlaced = 0;
      for (StageFigures.Task t : reduceTasks) {
        if (t.host().equals(placedHost.apply(t.partition()))) {
          onPlaced++;
        }
      }
    }
    return new RunFigures(program, shuffle, output, jobStart, jobEnd,
        maps.stream().mapToLong(StageFigures.Stage::submitted).min().orElse(jobStart),
        maps.stream().mapToLong(StageFigures.Stage::completed).max().orElse(jobStart),
        reduces.stream().mapToLong(StageFigures.Stage::submitted).min().orElse(jobEnd),
        reduces.stream().mapToLong(StageFigures.Stage::completed).max().orElse(jobEnd),
        maps.stream().mapToLong(StageFigures.Stage::shuffleWriteBytes).sum(), reduceTasks.size(),
        waits.length == 0 ? 0 : waits[waits.length / 2], waits.length == 0 ? 0 : waits[waits.length - 1],
        reduceTasks.stream().mapToLong(StageFigures.Task::fetchWaitMs).sum(),
        reduceTasks.stream().mapToLong(StageFigures.Task::localBytes).sum(),
        reduceTasks.stream().mapToLong(StageFigures.Task::remoteBytes).sum(), onPlaced,
        figures.tasks().stream().filter(t -> t.successful() && mapIds.contains(t.stageId()))
            .mapToLong(StageFigures.Task::cpuMs).sum(),
        reduceTasks.stream().mapToLong(StageFigures.Task::cpuMs).sum(),
        (int) figures.tasks().stream().filter(t -> t.successful() && t.locality().equals("PROCESS_LOCAL")).count(),
        (int) figures.tasks().stream().filter(t -> t.successful() && t.locality().equals("ANY")).count());
  }

  static final String TASKS_HEADER =
      "kind,stage,partition,host,launch_ms,finish_ms,fetch_wait_ms,successful,locality,run_ms,cpu_ms\n";

  /**
   * The tasks of {@code figures} as CSV, one line each: the kind of its stage (map, reduce or other), its
   * stage and partition, its host, its launch and finish (epoch ms), its shuffle fetch wait, its locality level,
   * and the time it ran in its executor and the CPU time it used.
   */
  static String tasksCsv(StageFigures figures) {
    List<Integer> maps = figures.stages().stream().filter(s -> s.shuffleWriteBytes() > 0).map(StageFigures.Stage::id)
        .toList();
    List<Integer> reduces = figures.stages().stream().filter(s -> s.shuffleReadBytes() > 0)
        .map(StageFigures.Stage::id).toList();
    StringBuilder sb = new StringBuilder(TASKS_HEADER);
    for (StageFigures.Task t : figures.tasks()) {
      String kind = maps.contains(t.stageId()) ? "map" : reduces.contains(t.stageId()) ? "reduce" : "other";
      sb.append(String.join(",", kind, Integer.toString(t.stageId()), Integer.toString(t.partition()), t.host(),
          Long.toString(t.launch()), Long.toString(t.finish()), Long.toString(t.fetchWaitMs()),
          Boolean.toString(t.successful()), t.locality(), Long.toString(t.runMs()), Long.toString(t.cpuMs())))
          .append('\n');
    }
    return sb.toString();
  }

  void write(Path file) throws IOException {
    Properties p = new Properties();
    var components = RunFigures.class.getRecordComponents();
    for (var c : components) {
      try {
        p.setProperty(c.getName(), String.valueOf(c.getAccessor().invoke(this)));
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      p.store(w, "one run of the Spark benchmark");
    }
  }

  static RunFigures read(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    }
    var components = RunFigures.class.getRecordComponents();
    List<Object> values = new ArrayList<>();
    Class<?>[] types = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      String v = p.getProperty(components[i].getName());
      if (v == null) {
        throw new IOException(file + " has no " + components[i].getName());
      }
      types[i] = components[i].getType();
      values.add(PARSERS.get(types[i]).apply(v));
    }
    try {
      return RunFigures.class.getDeclaredConstructor(types).newInstance(values.toArray());
    } catch (ReflectiveOperationException e) {
      throw new IOException("cannot read " + file, e);
    }
  }

  private static final Map<Class<?>, Function<String, Object>> PARSERS = Map.of(String.class, s -> s,
      long.class, Long::parseLong, int.class, Integer::parseInt);
}
