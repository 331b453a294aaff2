package org.scache.tez;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.tez.mapreduce.processor.SimpleMRProcessor;
import org.apache.tez.runtime.api.ProcessorContext;
import org.apache.tez.runtime.library.api.KeyValueWriter;
import org.apache.tez.runtime.library.api.KeyValuesReader;

/**
 * The last vertex of the ordered word count: like Tez's OrderedWordCount.NoOpSorter it writes every
 * (count, word) in the order of the counts, and it also sorts the words of one count.
 */
public class SortedValuesSorter extends SimpleMRProcessor {
  public SortedValuesSorter(ProcessorContext context) {
    super(context);
  }

  @Override
  public void run() throws Exception {
    KeyValueWriter writer = (KeyValueWriter) getOutputs().get("Output").getWriter();
    KeyValuesReader reader = (KeyValuesReader) getInputs().get("Summation").getReader();
    while (reader.next()) {
      Object count = reader.getCurrentKey();
      List<String> words = new ArrayList<>();
      for (Object word : reader.getCurrentValues()) {
        words.add(word.toString());
      }
      Collections.sort(words);
      for (String word : words) {
        writer.write(word, count);
      }
    }
  }
}
