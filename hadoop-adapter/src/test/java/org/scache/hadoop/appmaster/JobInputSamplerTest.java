package org.scache.hadoop.appmaster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.examples.terasort.TeraInputFormat;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.split.JobSplit.TaskSplitMetaInfo;
import org.apache.hadoop.mapreduce.split.JobSplitWriter;
import org.apache.hadoop.mapreduce.split.SplitMetaInfoReader;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.util.ReflectionUtils;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.common.shuffle.MapSample;
import org.scache.hadoop.MapReduceOptions;
import org.scache.hadoop.MiniScacheYarnCluster;
import org.scache.sampling.SplitSample;
import org.scache.sampling.WeightedSamplingPredictor;

/**
 * Sampling before the job on TeraSort input: the application master's sampler, with TeraSort's own input
 * format and total order partitioner (its split points read from the {@code _partition.lst} cache file),
 * predicts every reduce's input size within a few percent of what the maps then produce.
 */
@Timeout(300)
class JobInputSamplerTest {
  private static final String TERASORT_PARTITIONER =
      "org.apache.hadoop.examples.terasort.TeraSort$TotalOrderPartitioner";
  private static final int REDUCES = 8;
  private static final long ROWS = 400_000;
  private static final File PARTITION_LINK = new File(System.getProperty("user.dir"), "_partition.lst");

  @AfterEach
  void removeLinkedCacheFile() throws Exception {
    Files.deleteIfExists(PARTITION_LINK.toPath());
  }

  @Test
  void samplingTerasortInputPredictsReduceSizesWithinFivePercentOnAverageAndTenAtWorst() throws Throwable {
    Path dir = Path.of("target", "job-input-sampler").toAbsolutePath();
    MiniScacheYarnCluster.deleteRecursively(dir);
    Files.deleteIfExists(PARTITION_LINK.toPath());
    JobConf local = new JobConf();
    local.set("mapreduce.framework.name", "local");
    local.set("fs.defaultFS", "file:///");
    local.setInt(MRJobConfig.NUM_MAPS, 2);
    String input = dir.resolve("input").toString();
    assertEquals(0, ToolRunner.run(local, new TeraGen(), new String[] {Long.toString(ROWS), input}));

    // the job as TeraSort submits it: 8 MiB splits, its partition file added as a cache file named _partition.lst
    Job job = Job.getInstance(local);
    job.setJobID(new JobID("sampling", 1));
    job.setInputFormatClass(TeraInputFormat.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setNumReduceTasks(REDUCES);
    job.getConfiguration().set(MRJobConfig.PARTITIONER_CLASS_ATTR, TERASORT_PARTITIONER);
    job.getConfiguration().setLong(FileInputFormat.SPLIT_MAXSIZE, 8L << 20);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(input));
    org.apache.hadoop.fs.Path partitionFile = new org.apache.hadoop.fs.Path(dir.toString(), "_partition.lst");
    TeraInputFormat.writePartitionFile(job, partitionFile);
    job.addCacheFile(new java.net.URI(partitionFile.toUri() + "#_partition.lst"));
    JobConf conf = new JobConf(job.getConfiguration());
    conf.setUseNewMapper(true);

    List<InputSplit> splits = new TeraInputFormat().getSplits(job);
    org.apache.hadoop.fs.Path submitDir = new org.apache.hadoop.fs.Path(dir.toString(), "submit");
    FileSystem fs = FileSystem.getLocal(conf);
    JobSplitWriter.createSplitFiles(submitDir, conf, fs, splits.toArray(new InputSplit[0]));
    TaskSplitMetaInfo[] meta = SplitMetaInfoReader.readSplitMetaInfo(job.getJobID(), fs, conf, submitDir);

    // the default samples per reduce; 1 MiB of each 8 MiB split is read, in 8 windows
    int samplesPerReduce = MapReduceOptions.SAMPLING_SAMPLES_PER_REDUCE.parse(
        MapReduceOptions.SAMPLING_SAMPLES_PER_REDUCE.defaultText());
    List<MapSample> samples =
        new JobInputSampler(conf, job.getJobID(), samplesPerReduce, 1L << 20, 8, 42).sample(meta);
    assertTrue(PARTITION_LINK.isFile(), "the cache file was linked into the working directory");

    double[] predicted = new double[REDUCES];
    for (MapSample s : samples) {
      double[] blocks = WeightedSamplingPredictor.blockSizes(SplitSample.of(s.inputBytes(), s.capacity(),
          s.countsPerReduce().stream().mapToInt(Integer::intValue).toArray()));
      for (int r = 0; r < REDUCES; r++) {
        predicted[r] += blocks[r];
      }
    }
    long[] actual = actualReduceBytes(conf, splits);
    double mean = (double) ROWS * 100 / REDUCES;
    double worst = 0;
    double sum = 0;
    for (int r = 0; r < REDUCES; r++) {
      double error = Math.abs(predicted[r] - actual[r]) / actual[r];
      worst = Math.max(worst, error);
      sum += error;
      System.out.printf("reduce %d: predicted %.0f bytes, actual %d bytes, error %.1f%%%n", r, predicted[r], actual[r],
          100 * error);
    }
    System.out.printf("SAMPLING %d splits, %d samples each: reduce size error %.1f%% on average, %.1f%% at worst "
        + "(mean reduce %.0f bytes)%n", meta.length, samples.get(0).capacity(), 100 * sum / REDUCES, 100 * worst, mean);
    assertEquals(splits.size(), samples.size());
    assertTrue(sum / REDUCES < 0.05, "average reduce size error " + sum / REDUCES);
    assertTrue(worst < 0.10, "worst reduce size error " + worst);
  }

  /** Every record through TeraSort's partitioner: the bytes each reduce gets. */
  @SuppressWarnings("unchecked")
  private static long[] actualReduceBytes(JobConf conf, List<InputSplit> splits) throws Exception {
    Partitioner<Text, Text> partitioner = (Partitioner<Text, Text>) ReflectionUtils.newInstance(
        conf.getClassByName(TERASORT_PARTITIONER), conf);
    long[] bytes = new long[REDUCES];
    TaskAttemptContext context = new TaskAttemptContextImpl(conf, new TaskAttemptID());
    for (InputSplit split : splits) {
      try (RecordReader<Text, Text> reader = new TeraInputFormat().createRecordReader(split, context)) {
        reader.initialize(split, context);
        while (reader.nextKeyValue()) {
          Text key = reader.getCurrentKey();
          Text value = reader.getCurrentValue();
          bytes[partitioner.getPartition(key, value, REDUCES)] += key.getLength() + value.getLength();
        }
      }
    }
    return bytes;
  }
}
