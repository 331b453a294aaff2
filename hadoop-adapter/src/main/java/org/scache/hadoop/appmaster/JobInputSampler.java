package org.scache.hadoop.appmaster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.io.compress.SplittableCompressionCodec;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.split.JobSplit.TaskSplitIndex;
import org.apache.hadoop.mapreduce.split.JobSplit.TaskSplitMetaInfo;
import org.scache.common.shuffle.MapSample;
import org.scache.sampling.ReservoirSampler;
import org.scache.sampling.SplitSample;

/**
 * The paper's sampling before the job (Section IV-A1) for a MapReduce job whose partitioner is not a hash
 * partitioner: for every map's input split, reads records with the job's own {@code InputFormat}, runs them
 * through the job's mapper, partitions the map output with the job's partitioner, and keeps a reservoir
 * sample of {@code s × p} partition ids. The result, with the split's size as weight, is what {@code
 * WeightedSamplingPredictor} predicts the reduce sizes from.
 *
 * <p>A file split is not read whole: {@link SampledWindows} picks a few evenly spaced windows of it that
 * together hold at most {@code scache.hadoop.sampling.read.per.split} bytes (the record reader aligns each
 * window to record boundaries, as it does for any split). Other splits, and files compressed with a codec
 * that cannot be split, are read from the start up to a record budget. Cache files with a link name (such as
 * TeraSort's {@code _partition.lst}) are copied into the working directory first, where the partitioner
 * looks for them as it would in a task.
 */
final class JobInputSampler {
  /** Records read per sample slot from a split that cannot be windowed. */
  static final int RECORDS_PER_SLOT_UNWINDOWED = 64;

  private final JobConf conf;
  private final org.apache.hadoop.mapreduce.JobID jobId;
  private final int samplesPerReduce;
  private final long readPerSplit;
  private final int windows;
  private final long seed;

  JobInputSampler(JobConf conf, org.apache.hadoop.mapreduce.JobID jobId, int samplesPerReduce, long readPerSplit,
      int windows, long seed) {
    this.conf = conf;
    this.jobId = jobId;
    this.samplesPerReduce = samplesPerReduce;
    this.readPerSplit = readPerSplit;
    this.windows = windows;
    this.seed = seed;
  }

  /** Samples every split of {@code splits}, in map order; map ids are the split indices. */
  List<MapSample> sample(TaskSplitMetaInfo[] splits) throws IOException, InterruptedException {
    int reduces = conf.getNumReduceTasks();
    int capacity = Math.multiplyExact(samplesPerReduce, reduces);
    new CacheFileLinks(conf).linkIntoWorkingDirectory();
    MapFunction map = conf.getUseNewMapper() ? new NewApiMapFunction(conf, jobId) : new OldApiMapFunction(conf);
    SplittableRandom random = new SplittableRandom(seed);
    List<MapSample> samples = new ArrayList<>(splits.length);
    for (int m = 0; m < splits.length; m++) {
      if (Thread.currentThread().isInterrupted()) {
        throw new InterruptedException("sampling interrupted");
      }
      ReservoirSampler<Integer> reservoir = new ReservoirSampler<>(capacity, random.split());
      Object split = readSplit(splits[m].getSplitIndex());
      SampledWindows pieces = SampledWindows.of(split, readPerSplit, windows, compressedWhole(split));
      long budget = pieces.windowed() ? Long.MAX_VALUE : (long) capacity * RECORDS_PER_SLOT_UNWINDOWED;
      for (Object piece : pieces.splits()) {
        map.run(piece, budget, reservoir::offer);
      }
      SplitSample sample = SplitSample.fromPartitionIds(splits[m].getInputDataLength(), capacity, reduces,
          reservoir.sample().stream().mapToInt(Integer::intValue).toArray());
      // YARN prefers to run the map on a host of its split; with data on the local file system there is none
      String[] locations = splits[m].getLocations();
      Optional<String> host = locations == null || locations.length == 0 || locations[0].equals("localhost")
          ? Optional.empty() : Optional.of(locations[0]);
      samples.add(new MapSample(m, sample.inputBytes(), capacity, counts(sample), host));
    }
    return samples;
  }

  private static List<Integer> counts(SplitSample s) {
    List<Integer> counts = new ArrayList<>(s.reduceCount());
    for (int r = 0; r < s.reduceCount(); r++) {
      counts.add(s.count(r));
    }
    return counts;
  }

  /** Whether the split is a file compressed with a codec that cannot start mid-file. */
  private boolean compressedWhole(Object split) {
    Path file = SampledWindows.fileOf(split);
    if (file == null) {
      return false;
    }
    CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(file);
    return codec != null && !(codec instanceof SplittableCompressionCodec);
  }

  /** Reads one split from the job's split file, as a map task does before it runs. */
  private Object readSplit(TaskSplitIndex index) throws IOException {
    Path file = new Path(index.getSplitLocation());
    FileSystem fs = file.getFileSystem(conf);
    try (FSDataInputStream in = fs.open(file)) {
      in.seek(index.getStartOffset());
      String className = Text.readString(in);
      Class<?> type;
      try {
        type = conf.getClassByName(className);
      } catch (ClassNotFoundException e) {
        throw new IOException("split class " + className + " is not on the application master's classpath", e);
      }
      @SuppressWarnings("unchecked")
      Deserializer<Object> deserializer = new SerializationFactory(conf).getDeserializer((Class<Object>) type);
      if (deserializer == null) {
        throw new IOException("no serialization for split class " + className);
      }
      deserializer.open(in);
      Object split = deserializer.deserialize(null);
      deserializer.close();
      return split;
    }
  }

  /** The job's map function over one piece of a split, handing each output record's partition on. */
  interface MapFunction {
    /** Maps the records of {@code split}, at most {@code recordBudget} of them, and partitions the output. */
    void run(Object split, long recordBudget, IntConsumer partitions) throws IOException, InterruptedException;
  }
}
