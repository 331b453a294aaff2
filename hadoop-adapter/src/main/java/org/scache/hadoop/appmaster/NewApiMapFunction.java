package org.scache.hadoop.appmaster;

import java.io.IOException;
import java.util.function.IntConsumer;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MapContext;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.map.WrappedMapper;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.MapContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.util.ReflectionUtils;

/** A new-API ({@code org.apache.hadoop.mapreduce}) job's input format, mapper and partitioner, for sampling. */
final class NewApiMapFunction implements JobInputSampler.MapFunction {
  private final JobConf conf;
  private final TaskAttemptID attempt;
  private final InputFormat<Object, Object> inputFormat;
  private final Partitioner<Object, Object> partitioner;
  private final Class<? extends Mapper<?, ?, ?, ?>> mapperClass;
  private final int reduces;

  @SuppressWarnings("unchecked")
  NewApiMapFunction(JobConf conf, JobID jobId) throws IOException {
    this.conf = conf;
    this.attempt = new TaskAttemptID(jobId.getJtIdentifier(), jobId.getId(), TaskType.MAP, 0, 0);
    JobContextImpl job = new JobContextImpl(conf, jobId);
    try {
      this.inputFormat = (InputFormat<Object, Object>) ReflectionUtils.newInstance(job.getInputFormatClass(), conf);
      this.partitioner = (Partitioner<Object, Object>) ReflectionUtils.newInstance(job.getPartitionerClass(), conf);
      this.mapperClass = (Class<? extends Mapper<?, ?, ?, ?>>) job.getMapperClass();
    } catch (ClassNotFoundException e) {
      throw new IOException("a class of the job is not on the application master's classpath: " + e.getMessage(), e);
    }
    this.reduces = conf.getNumReduceTasks();
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void run(Object split, long recordBudget, IntConsumer partitions) throws IOException, InterruptedException {
    InputSplit input = (InputSplit) split;
    TaskAttemptContext context = new TaskAttemptContextImpl(conf, attempt);
    try (RecordReader<Object, Object> reader = inputFormat.createRecordReader(input, context)) {
      reader.initialize(input, context);
      RecordWriter<Object, Object> partitioning = new RecordWriter<>() {
        @Override
        public void write(Object key, Object value) {
          partitions.accept(partitioner.getPartition(key, value, reduces));
        }

        @Override
        public void close(TaskAttemptContext c) {}
      };
      MapContext mapContext = new MapContextImpl(conf, attempt, new Budgeted<>(reader, recordBudget), partitioning,
          null, new CountingReporter(), input);
      Mapper mapper = ReflectionUtils.newInstance(mapperClass, conf);
      mapper.run(new WrappedMapper().getMapContext(mapContext));
    }
  }

  /** A record reader that ends after a number of records. */
  private static final class Budgeted<K, V> extends RecordReader<K, V> {
    private final RecordReader<K, V> reader;
    private long left;

    Budgeted(RecordReader<K, V> reader, long budget) {
      this.reader = reader;
      this.left = budget;
    }

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) {}

    @Override
    public boolean nextKeyValue() throws IOException, InterruptedException {
      if (left <= 0 || Thread.currentThread().isInterrupted()) {
        return false;
      }
      left--;
      return reader.nextKeyValue();
    }

    @Override
    public K getCurrentKey() throws IOException, InterruptedException {
      return reader.getCurrentKey();
    }

    @Override
    public V getCurrentValue() throws IOException, InterruptedException {
      return reader.getCurrentValue();
    }

    @Override
    public float getProgress() throws IOException, InterruptedException {
      return reader.getProgress();
    }

    @Override
    public void close() {}
  }

  /** Counters a mapper may update while sampling; they are discarded. */
  private static final class CountingReporter extends StatusReporter {
    private final Counters counters = new Counters();

    @Override
    public Counter getCounter(Enum<?> name) {
      return counters.findCounter(name);
    }

    @Override
    public Counter getCounter(String group, String name) {
      return counters.findCounter(group, name);
    }

    @Override
    public void progress() {}

    @Override
    public float getProgress() {
      return 0;
    }

    @Override
    public void setStatus(String status) {}
  }
}
