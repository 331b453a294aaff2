package org.scache.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.common.auth.Credentials;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.network.ConnectionPool;
import org.scache.common.network.TransportSettings;
import org.scache.common.protocol.AppSecret;
import org.scache.common.protocol.FetchAppSecret;

/**
 * A MapReduce job shuffles through SCache on a master that registers only the applications the cluster vouches
 * for: the NodeManagers announce the job (its application master's container first) with its YARN user, and the
 * master registers it as that user; its output is the same as on Hadoop's shuffle.
 */
class VouchedMapReduceIT {
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void wordCount_onAMasterThatRegistersVouchedApplicationsOnly_shufflesThroughScacheAsItsYarnUser()
      throws Exception {
    try (MiniScacheYarnCluster cluster = MiniScacheYarnCluster.forTests("mr-vouched", 2, conf -> { },
        ScacheConf.empty().with(ScacheOptions.SECURITY_APPLICATIONS_VOUCHED, true));
         ConnectionPool pool = new ConnectionPool(TransportSettings.defaults(), "vouched-it")) {
      Path input = cluster.workDir().resolve("words");
      Files.createDirectories(input);
      Random rnd = new Random(7);
      try (BufferedWriter w = Files.newBufferedWriter(input.resolve("part-0.txt"))) {
        for (int line = 0; line < 5000; line++) {
          for (int i = 0; i < 8; i++) {
            w.write("w" + rnd.nextInt(500) + " ");
          }
          w.newLine();
        }
      }
      Job onHadoop = wordCount(cluster.jobConf(), input, cluster.workDir().resolve("out-hadoop"));
      assertTrue(onHadoop.waitForCompletion(false), () -> "the job on Hadoop's shuffle failed: " + failureOf(onHadoop));
      JobConf conf = cluster.jobConf();
      assertTrue(ScacheJob.enable(conf), "SCache is reachable");
      Job job = wordCount(conf, input, cluster.workDir().resolve("out"));
      assertTrue(job.waitForCompletion(false), () -> "the job failed: " + failureOf(job));
      assertEquals(outputOf(cluster.workDir().resolve("out-hadoop")), outputOf(cluster.workDir().resolve("out")),
          "the same output as on Hadoop's shuffle, file by file");
      Counters counters = job.getCounters();
      long put = counters.findCounter(ScacheCounter.BYTES_PUT).getValue();
      assertTrue(put > 0, "maps put blocks on SCache");
      assertEquals(put, counters.findCounter(ScacheCounter.BYTES_READ).getValue(), "reduces read every byte put");
      assertEquals(counters.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue(), put);
      String appId = job.getJobID().toString().replace("job_", "application_");
      AppSecret known = pool.get("127.0.0.1", cluster.master().port()).join().call(new FetchAppSecret(appId),
          Optional.of(Credentials.cluster(MiniScacheYarnCluster.CLUSTER_SECRET.getBytes(StandardCharsets.UTF_8))),
          Duration.ofSeconds(10)).join().as(AppSecret.class);
      assertEquals(UserGroupInformation.getCurrentUser().getShortUserName(), known.user(),
          "the master registered the job as its YARN user");
    }
  }

  private static Job wordCount(JobConf conf, Path input, Path out) throws IOException {
    Job job = Job.getInstance(conf, "vouched-wordcount");
    job.setJarByClass(VouchedMapReduceIT.class);
    job.setMapperClass(TokenCounterMapper.class);
    job.setCombinerClass(IntSumReducer.class);
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(2);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(input.toUri()));
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(out.toUri()));
    return job;
  }

  /** Each part file of a job's output directory, by name. */
  private static Map<String, String> outputOf(Path dir) throws IOException {
    Map<String, String> parts = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(f -> f.getFileName().toString().startsWith("part-")).toList()) {
        parts.put(f.getFileName().toString(), Files.readString(f));
      }
    }
    return parts;
  }

  private static String failureOf(Job job) {
    try {
      return job.getStatus().getFailureInfo();
    } catch (Exception e) {
      return e.toString();
    }
  }
}
