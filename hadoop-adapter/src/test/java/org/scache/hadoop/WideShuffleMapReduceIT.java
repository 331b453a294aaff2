package org.scache.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.Sort;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.WorkerInfo;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.shuffle.PartitionerKind;

/**
 * Hadoop's example {@code sort}, switched over as docs/deploy-yarn.md says, on workers that hold 8 blocks each,
 * 4 of them for one user: a job never fails for SCache's limits. One whose map outputs more blocks than its node's
 * worker holds for it puts the rest on the other worker; one wider than both workers hold, or than they hold beside
 * the blocks another job's registered shuffle has still to put, runs on Hadoop's shuffle from its start. All give
 * the output Hadoop's shuffle gives.
 */
class WideShuffleMapReduceIT {
  private static final int REDUCES = 6;
  private static MiniScacheYarnCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = MiniScacheYarnCluster.forTests("mr-wide", 2,
        conf -> conf.setInt(ScacheOptions.WORKER_BLOCKS_MAX.key(), 8));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void sortWithMoreReducesThanItsWorkersShare_putsTheRestOnTheOtherWorker_sameOutputAsHadoopShuffle()
      throws Exception {
    Path input = writeRecords("one-map", 1);
    Map<String, Map<String, Long>> before = cluster.statsByWorker();
    // Hadoop's shuffle in the local job runner: the same sort, its part files byte for byte, without YARN's containers
    JobConf local = cluster.jobConf();
    local.set(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
    Counters hadoop = sort(local, input, "one-map-hadoop");
    JobConf conf = cluster.jobConf();
    assertTrue(ScacheJob.enable(conf), "SCache is reachable");
    Counters scache = sort(conf, input, "one-map-scache");

    assertEquals(recordsOf("one-map-hadoop"), recordsOf("one-map-scache"), "the same sorted records, part by part");
    assertEquals(0, hadoop.findCounter(ScacheCounter.BLOCKS_PUT).getValue());
    assertEquals(REDUCES, scache.findCounter(ScacheCounter.BLOCKS_PUT).getValue(), "one block per reduce");
    long put = scache.findCounter(ScacheCounter.BYTES_PUT).getValue();
    assertEquals(put, scache.findCounter(ScacheCounter.BYTES_READ).getValue(), "reduces read every byte put");
    Map<String, Map<String, Long>> after = cluster.statsByWorker();
    List<Long> putOnEach = new ArrayList<>();
    long refusals = 0;
    for (String worker : after.keySet()) {
      putOnEach.add(after.get(worker).get("put.blocks") - before.get(worker).get("put.blocks"));
      refusals += after.get(worker).get("limit.refusals") - before.get(worker).get("limit.refusals");
    }
    putOnEach.sort(null);
    assertEquals(List.of(2L, 4L), putOnEach, "the map's worker held its share of 4, the other worker the rest");
    assertTrue(refusals >= 2, "the map's worker refused the blocks beyond its share: " + after);
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void sortWiderThanBothWorkersHold_runsOnHadoopShuffleFromItsStart_andSortsEveryRecord() throws Exception {
    Path input = writeRecords("two-maps", 2);
    Sort<BytesWritable, BytesWritable> job = new Sort<>();
    Counters wide = sortSwitchedOn(input, "two-maps-scache", job);

    assertEquals(0, wide.findCounter(ScacheCounter.BLOCKS_PUT).getValue(),
        "2 maps × 6 reduces put 12 blocks, more than the 2 × 4 the workers hold: Hadoop's shuffle");
    assertTrue(wide.findCounter(org.apache.hadoop.mapreduce.TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES).getValue() > 0);
    assertEquals(sortedRecordsIn(input), partsInKeyOrder("two-maps-scache"), "every record of the input, once");
    String appId = job.getResult().getJobID().toString().replace("job_", "application_");
    assertTrue(containerLogsOf(appId).contains("the job's shuffle does not fit in SCache: its 2 maps × 6 reduces put "
        + "12 blocks"), "the application master's log says why the job runs on Hadoop's shuffle");
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void sortThatFitsOnlyInTheRoomAnotherJobsShuffleIsBookedFor_runsOnHadoopShuffle_andTheRoomIsFreedWithThatJob()
      throws Exception {
    Path input = writeRecords("booked", 1);
    List<String> expected = sortedRecordsIn(input);
    try (ScacheClient other = ScacheClient.create(masterClient(), "application_other_0001",
        "other".getBytes(StandardCharsets.UTF_8))) {
      // another job whose 2 maps × 6 reduces have not run yet: its 12 blocks are booked, 4 of the 16 left
      other.registerApplication();
      other.registerShuffle(0, 2, REDUCES, PartitionerKind.HASH);
      Sort<BytesWritable, BytesWritable> job = new Sort<>();
      Counters booked = sortSwitchedOn(input, "booked-scache", job);

      assertEquals(0, booked.findCounter(ScacheCounter.BLOCKS_PUT).getValue(),
          "1 map × 6 reduces fits the workers alone, not beside the other job's booked blocks: Hadoop's shuffle");
      List<String> all = new ArrayList<>();
      recordsOf("booked-scache").values().forEach(all::addAll);
      all.sort(null);
      assertEquals(expected, all, "every record of the input, once");
      String appId = job.getResult().getJobID().toString().replace("job_", "application_");
      assertTrue(containerLogsOf(appId).contains("the shuffles registered already have 12 blocks still to put"),
          "the application master's log says why the job runs on Hadoop's shuffle");

      other.removeApplication();
      assertEquals(0, other.blockRoom().toCome(), "the other job's room is free once it ends");
    }
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void sortWhoseMapEveryWorkerRefusesAfterItsCheck_runsTheMapAgainAsHadoopShuffle_andSortsEveryRecord()
      throws Exception {
    Path input = writeRecords("refused", 1);
    List<String> expected = sortedRecordsIn(input);
    ScacheConf master = masterClient();
    List<ScacheClient> others = new ArrayList<>();
    try (ScacheClient probe = ScacheClient.create(master, "application_probe_0001", new byte[] {1})) {
      Sort<BytesWritable, BytesWritable> job = new Sort<>();
      CompletableFuture<Counters> run = CompletableFuture.supplyAsync(() -> {
        try {
          return sortSwitchedOn(input, "refused-scache", job);
        } catch (Exception e) {
          throw new CompletionException(e);
        }
      });
      while (probe.blockRoom().toCome() < REDUCES) {
        Thread.sleep(20); // the application master has not registered the job's shuffle yet
      }
      // the job fitted when its application master checked; before its map runs, two other applications take all
      // that both workers hold (2 × 8 blocks)
      WorkerInfo worker = probe.workers().get(0);
      ScacheConf fill = master.with(ScacheOptions.CLIENT_WORKER_ADDRESS, worker.host() + ":" + worker.port());
      for (int app = 0; app < 2; app++) {
        ScacheClient other = ScacheClient.create(fill, "application_fill_000" + app, new byte[] {2});
        others.add(other);
        other.registerApplication();
        for (int block = 0; block < 8; block++) {
          other.putBlock(new BlockId(other.appId(), 0, block, 0, 0), new byte[] {7});
        }
      }
      Counters counters = run.get();

      assertEquals(1, counters.findCounter(ScacheCounter.MAPS_WRITTEN_AS_HADOOP).getValue(),
          "the map's first attempt failed, every worker refusing its blocks; the second wrote as Hadoop's shuffle");
      assertEquals(REDUCES, counters.findCounter(ScacheCounter.OUTPUTS_READ_FROM_NODE_MANAGERS).getValue(),
          "each reduce read the map's output from its NodeManager");
      assertEquals(expected, partsInKeyOrder("refused-scache"), "every record of the input, once");
    } finally {
      for (ScacheClient other : others) {
        other.removeApplication();
        other.close();
      }
    }
  }

  /** The records of {@code input}, sorted: what a sort of it must give, all parts together. */
  private static List<String> sortedRecordsIn(Path input) throws IOException {
    List<String> records = new ArrayList<>(recordsIn(input));
    records.sort(null);
    return records;
  }

  /** The records of every part of a sort's output, each part checked to be in key order; sorted all together. */
  private static List<String> partsInKeyOrder(String out) throws IOException {
    List<String> all = new ArrayList<>();
    for (List<String> part : recordsOf(out).values()) {
      assertEquals(part.stream().sorted().toList(), part, "each part in key order");
      all.addAll(part);
    }
    all.sort(null);
    return all;
  }

  /** A client's configuration naming the cluster's SCache master. */
  private static ScacheConf masterClient() {
    return ScacheConf.empty().with(ScacheOptions.CLIENT_MASTER_ADDRESS, "127.0.0.1:" + cluster.master().port());
  }

  /** Every syslog of the application's containers, as YARN's log aggregation would show them. */
  private static String containerLogsOf(String appId) throws IOException {
    StringBuilder logs = new StringBuilder();
    try (Stream<Path> files = Files.walk(Path.of("target"))) {
      for (Path f : files.filter(p -> p.toString().contains(appId) && p.getFileName().toString().equals("syslog"))
          .toList()) {
        logs.append(Files.readString(f));
      }
    }
    return logs.toString();
  }

  /** Runs {@code job} with the switch on, as {@link ScacheJob#enable} sets it at submission; its counters. */
  private static Counters sortSwitchedOn(Path input, String out, Sort<BytesWritable, BytesWritable> job)
      throws Exception {
    JobConf conf = cluster.jobConf();
    assertTrue(ScacheJob.enable(conf), "SCache is reachable at submission");
    return sort(conf, input, out, job);
  }

  /** Runs the example sort with {@value #REDUCES} reduces; its counters. */
  private static Counters sort(JobConf conf, Path input, String out) throws Exception {
    return sort(conf, input, out, new Sort<>());
  }

  private static Counters sort(JobConf conf, Path input, String out, Sort<BytesWritable, BytesWritable> sort)
      throws Exception {
    int rc = ToolRunner.run(conf, sort, new String[] {"-r", Integer.toString(REDUCES), input.toUri().toString(),
        cluster.workDir().resolve(out).toUri().toString()});
    assertEquals(0, rc, out + " failed: " + sort.getResult().getStatus().getFailureInfo());
    return sort.getResult().getCounters();
  }

  /** {@code files} SequenceFiles of random BytesWritable keys and values, one map each. */
  private static Path writeRecords(String name, int files) throws IOException {
    Path dir = cluster.workDir().resolve(name);
    Files.createDirectories(dir);
    Random rnd = new Random(name.hashCode());
    Configuration conf = new Configuration();
    for (int f = 0; f < files; f++) {
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve("part-" + f).toUri());
      try (SequenceFile.Writer w = SequenceFile.createWriter(conf, SequenceFile.Writer.file(file),
          SequenceFile.Writer.keyClass(BytesWritable.class), SequenceFile.Writer.valueClass(BytesWritable.class))) {
        for (int i = 0; i < 3000; i++) {
          byte[] key = new byte[10];
          byte[] value = new byte[90];
          rnd.nextBytes(key);
          rnd.nextBytes(value);
          w.append(new BytesWritable(key), new BytesWritable(value));
        }
      }
    }
    return dir;
  }

  /** The records of each part file of an output directory, in file order. */
  private static Map<String, List<String>> recordsOf(String out) throws IOException {
    Map<String, List<String>> parts = new TreeMap<>();
    try (Stream<Path> files = Files.list(cluster.workDir().resolve(out))) {
      for (Path f : files.filter(p -> p.getFileName().toString().startsWith("part-")).toList()) {
        parts.put(f.getFileName().toString(), recordsIn(f));
      }
    }
    return parts;
  }

  /**
   * The records of a SequenceFile, or of every file of a directory, each its key and value in hex: the
   * strings sort as BytesWritable keys of one length do.
   */
  private static List<String> recordsIn(Path path) throws IOException {
    List<String> records = new ArrayList<>();
    List<Path> files = List.of(path);
    if (Files.isDirectory(path)) {
      try (Stream<Path> in = Files.list(path)) {
        files = in.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList();
      }
    }
    for (Path f : files) {
      try (SequenceFile.Reader r = new SequenceFile.Reader(new Configuration(),
          SequenceFile.Reader.file(new org.apache.hadoop.fs.Path(f.toUri())))) {
        BytesWritable k = new BytesWritable();
        BytesWritable v = new BytesWritable();
        while (r.next(k, v)) {
          records.add(HexFormat.of().formatHex(k.copyBytes()) + " " + HexFormat.of().formatHex(v.copyBytes()));
        }
      }
    }
    return records;
  }
}
