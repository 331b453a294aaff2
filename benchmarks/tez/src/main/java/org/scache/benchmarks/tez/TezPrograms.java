package org.scache.benchmarks.tez;

import java.nio.file.Path;
import java.util.Locale;
import org.apache.tez.dag.api.TezConfiguration;
import org.apache.tez.dag.api.client.DAGStatus;
import org.apache.tez.examples.OrderedWordCount;
import org.apache.tez.examples.SortMergeJoinExample;
import org.scache.benchmarks.harness.ByteSize;

/** The stock tez-examples programs the benchmark runs, unchanged, and the input each counts or joins. */
enum TezPrograms {
  /** OrderedWordCount: tokenizer, summation, sorter; two ordered scatter-gather edges. */
  OWC("OrderedWordCount") {
    @Override
    Path input(Path dataDir, long bytes, int maps) throws java.io.IOException {
      return WordInput.write(dataDir.resolve("tez-words-" + ByteSize.tag(bytes)), bytes, maps);
    }

    @Override
    DAGStatus run(ObservedTezClient client, TezConfiguration conf, Path input, Path out, int reduces, String dagName)
        throws Exception {
      return client.submitDAG(OrderedWordCount.createDAG(conf, input.toString(), out.toString(), reduces, true, false,
          dagName)).waitForCompletionWithStatusUpdates(java.util.EnumSet.of(
          org.apache.tez.dag.api.client.StatusGetOpts.GET_COUNTERS));
    }

    @Override
    String shape(int maps, int reduces) {
      return String.format(Locale.ROOT, "%d tokenizers, %d summation tasks, 1 sorter", maps, reduces);
    }
  },
  /** SortMergeJoinExample: two inputs sorted into one joiner vertex; two ordered scatter-gather edges. */
  JOIN("SortMergeJoinExample") {
    @Override
    Path input(Path dataDir, long bytes, int maps) throws java.io.IOException {
      return JoinInput.write(dataDir.resolve("tez-join-" + ByteSize.tag(bytes)), bytes, maps);
    }

    @Override
    DAGStatus run(ObservedTezClient client, TezConfiguration conf, Path input, Path out, int reduces, String dagName)
        throws Exception {
      // its own driver, given the session: it submits the DAG and waits, and leaves the session to the caller
      int code = new SortMergeJoinExample().run(conf, new String[] {"-disableSplitGrouping", "-leaveAmRunning",
          input.resolve(JoinInput.LEFT).toString(), input.resolve(JoinInput.RIGHT).toString(),
          Integer.toString(reduces), out.toString()}, client);
      if (code != 0) {
        throw new IllegalStateException("SortMergeJoinExample exited " + code);
      }
      return client.lastStatus();
    }

    @Override
    String shape(int maps, int reduces) {
      return String.format(Locale.ROOT, "%d + %d input tasks, %d joiner tasks", maps / 2, maps - maps / 2, reduces);
    }
  };

  private final String stockName;

  TezPrograms(String stockName) {
    this.stockName = stockName;
  }

  String stockName() {
    return stockName;
  }

  /** Writes (once) about {@code bytes} of this program's input in {@code maps} files under {@code dataDir}. */
  abstract Path input(Path dataDir, long bytes, int maps) throws java.io.IOException;

  /** Runs the program over {@code input} into {@code out} in the started session {@code client}; its final status. */
  abstract DAGStatus run(ObservedTezClient client, TezConfiguration conf, Path input, Path out, int reduces,
      String dagName) throws Exception;

  /** Its vertices' tasks, for the summary. */
  abstract String shape(int maps, int reduces);

  static TezPrograms of(String name) {
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("no program " + name + "; programs: owc, join", e);
    }
  }
}
