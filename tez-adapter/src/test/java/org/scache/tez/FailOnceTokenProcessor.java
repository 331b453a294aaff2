package org.scache.tez;

import java.io.IOException;
import java.util.StringTokenizer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.tez.runtime.api.LogicalOutput;
import org.apache.tez.runtime.api.ProcessorContext;
import org.apache.tez.runtime.library.api.KeyValueReader;
import org.apache.tez.runtime.library.api.KeyValueWriter;
import org.apache.tez.runtime.library.processor.SimpleProcessor;

/**
 * Word count's tokenizer, except that the first attempt of task 0 also emits a word no input
 * contains and then fails. Through SCache, that attempt first closes its output, so its blocks are
 * put and declared final before it fails: the consumers must read the retried attempt's blocks, or
 * the extra word shows up in the result.
 */
public class FailOnceTokenProcessor extends SimpleProcessor {
  static final String BOGUS_WORD = "written-only-by-the-failed-attempt";

  public FailOnceTokenProcessor(ProcessorContext context) {
    super(context);
  }

  @Override
  public void run() throws Exception {
    KeyValueReader reader = (KeyValueReader) getInputs().get("Input").getReader();
    LogicalOutput output = getOutputs().get("Summation");
    KeyValueWriter writer = (KeyValueWriter) output.getWriter();
    IntWritable one = new IntWritable(1);
    Text word = new Text();
    while (reader.next()) {
      StringTokenizer words = new StringTokenizer(reader.getCurrentValue().toString());
      while (words.hasMoreTokens()) {
        word.set(words.nextToken());
        writer.write(word, one);
      }
    }
    if (getContext().getTaskIndex() == 0 && getContext().getTaskAttemptNumber() == 0) {
      writer.write(new Text(BOGUS_WORD), one);
      if (output instanceof ScacheOrderedPartitionedKVOutput) {
        ((ScacheOrderedPartitionedKVOutput) output).close();
      }
      throw new IOException("the first attempt of producer task 0 fails on purpose");
    }
  }
}
