package org.scache.hadoop.appmaster;

import java.io.IOException;
import java.util.function.IntConsumer;
import org.apache.hadoop.mapred.InputFormat;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Mapper;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Partitioner;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.util.ReflectionUtils;

/** An old-API ({@code org.apache.hadoop.mapred}) job's input format, mapper and partitioner, for sampling. */
final class OldApiMapFunction implements JobInputSampler.MapFunction {
  private final JobConf conf;
  private final InputFormat<Object, Object> inputFormat;
  private final Partitioner<Object, Object> partitioner;
  private final int reduces;

  @SuppressWarnings("unchecked")
  OldApiMapFunction(JobConf conf) {
    this.conf = conf;
    this.inputFormat = conf.getInputFormat();
    this.partitioner = ReflectionUtils.newInstance(conf.getPartitionerClass(), conf);
    this.reduces = conf.getNumReduceTasks();
  }

  @Override
  @SuppressWarnings("unchecked")
  public void run(Object split, long recordBudget, IntConsumer partitions) throws IOException, InterruptedException {
    Mapper<Object, Object, Object, Object> mapper = ReflectionUtils.newInstance(conf.getMapperClass(), conf);
    OutputCollector<Object, Object> partitioning =
        (key, value) -> partitions.accept(partitioner.getPartition(key, value, reduces));
    RecordReader<Object, Object> reader = inputFormat.getRecordReader((InputSplit) split, conf, Reporter.NULL);
    try {
      Object key = reader.createKey();
      Object value = reader.createValue();
      for (long n = 0; n < recordBudget && reader.next(key, value); n++) {
        if (Thread.currentThread().isInterrupted()) {
          throw new InterruptedException("sampling interrupted");
        }
        mapper.map(key, value, partitioning, Reporter.NULL);
      }
      mapper.close();
    } finally {
      reader.close();
    }
  }
}
