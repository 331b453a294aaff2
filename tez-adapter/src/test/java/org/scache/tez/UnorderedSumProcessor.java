package org.scache.tez;

import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.tez.mapreduce.processor.SimpleMRProcessor;
import org.apache.tez.runtime.api.ProcessorContext;
import org.apache.tez.runtime.library.api.KeyValueReader;
import org.apache.tez.runtime.library.api.KeyValueWriter;

/**
 * The consumer of an unordered word count: (word, 1) pairs arrive in no particular order; it sums them
 * per word and writes the words in order, so the output is a function of the input alone.
 */
public class UnorderedSumProcessor extends SimpleMRProcessor {
  public UnorderedSumProcessor(ProcessorContext context) {
    super(context);
  }

  @Override
  public void run() throws Exception {
    KeyValueReader reader = (KeyValueReader) getInputs().get("Tokenizer").getReader();
    Map<String, Long> counts = new TreeMap<>();
    while (reader.next()) {
      counts.merge(reader.getCurrentKey().toString(),
          (long) ((org.apache.hadoop.io.IntWritable) reader.getCurrentValue()).get(), Long::sum);
    }
    KeyValueWriter writer = (KeyValueWriter) getOutputs().get("Output").getWriter();
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      writer.write(new Text(e.getKey()), new LongWritable(e.getValue()));
    }
  }
}
