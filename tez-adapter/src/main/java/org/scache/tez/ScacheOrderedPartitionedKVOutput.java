package org.scache.tez;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.Deflater;
import org.apache.tez.common.TezCommonUtils;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.OutputContext;
import org.apache.tez.runtime.api.events.CompositeDataMovementEvent;
import org.apache.tez.runtime.api.events.VertexManagerEvent;
import org.apache.tez.runtime.library.api.TezRuntimeConfiguration;
import org.apache.tez.runtime.library.common.shuffle.ShuffleUtils;
import org.apache.tez.runtime.library.common.sort.impl.ExternalSorter;
import org.apache.tez.runtime.library.output.OrderedPartitionedKVOutput;

/**
 * The producer side of an ordered scatter-gather edge through SCache. Records are partitioned,
 * sorted and combined by Tez's own sorter ({@code tez.runtime.sorter.class}: PipelinedSorter or
 * DefaultSorter, with their spills and final merge); at close each partition's IFile segment is put
 * on the node's SCache worker as one block (shuffle of the edge, map = task index, attempt, reduce =
 * partition), the attempt is declared final, and the consumers are told so in a data movement event
 * of their own format. When the DAG does not enable SCache it is Tez's OrderedPartitionedKVOutput.
 */
public class ScacheOrderedPartitionedKVOutput extends OrderedPartitionedKVOutput {
  private boolean useScache;
  private ProducerShuffle shuffle;
  /** Why SCache refused this attempt's registration, if it did. */
  private IOException refused;
  private boolean closed;

  public ScacheOrderedPartitionedKVOutput(OutputContext outputContext, int numPhysicalOutputs) {
    super(outputContext, numPhysicalOutputs);
  }

  @Override
  public synchronized List<Event> initialize() throws IOException {
    List<Event> events = super.initialize();
    useScache = TezScacheSettings.enabled(conf);
    if (useScache) {
      // one final sorted file per attempt, whose partitions become the blocks
      conf.setBoolean(TezRuntimeConfiguration.TEZ_RUNTIME_ENABLE_FINAL_MERGE_IN_OUTPUT, true);
      conf.setBoolean(TezRuntimeConfiguration.TEZ_RUNTIME_PIPELINED_SHUFFLE_ENABLED, false);
    }
    return events;
  }

  @Override
  public synchronized void start() throws Exception {
    if (useScache && shuffle == null && refused == null) {
      try {
        shuffle = ProducerShuffle.open(getContext(), conf, getNumPhysicalOutputs());
      } catch (IOException e) {
        refused = e; // the output is written as Tez's shuffle all the same: its consumers read it from there
      }
    }
    super.start();
  }

  @Override
  public synchronized List<Event> close() throws IOException {
    if (!useScache) {
      return super.close();
    }
    if (closed) {
      return new ArrayList<>();
    }
    closed = true;
    try {
      if (sorter == null) {
        // the processor never started this output: its partitions are put as empty segments all the same,
        // so that a missing block always means a lost one
        start();
      }
      ExternalSorter finished = sorter;
      finished.flush();
      List<Event> events = new ArrayList<>();
      for (Event e : finished.close()) {
        if (!(e instanceof CompositeDataMovementEvent)) {
          events.add(e);
        }
      }
      ProducerReport produced = stored(finished);
      Deflater deflater = TezCommonUtils.newBestCompressionDeflater();
      try {
        // Tez's own statistics for the ShuffleVertexManager's auto-parallelism, then SCache's report
        events.add(ShuffleUtils.generateVMEvent(getContext(), finished.getPartitionStats(),
            finished.reportDetailedPartitionStats(), deflater));
      } finally {
        deflater.end();
      }
      java.nio.ByteBuffer report = produced.encode();
      events.add(VertexManagerEvent.create(getContext().getDestinationVertexName(), report.duplicate()));
      events.add(CompositeDataMovementEvent.create(0, getNumPhysicalOutputs(), report));
      sorter = null;
      return events;
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("closing the SCache output of " + getContext().getInputOutputVertexNames()
          + " failed", e);
    } finally {
      if (shuffle != null) {
        shuffle.close();
      }
    }
  }

  /**
   * Puts the sorter's final output into SCache and declares the attempt final; when SCache does not take it all,
   * the file stays where Tez's shuffle service serves it, and the report says so.
   */
  private ProducerReport stored(ExternalSorter finished) throws IOException {
    if (shuffle == null) {
      return ProducerShuffle.refusedAtStart(getContext(), conf, getNumPhysicalOutputs(),
          TezShuffleOutput.of(getContext(), conf), refused);
    }
    try {
      shuffle.putPartitions(conf, finished.getFinalOutputFile(), finished.getFinalIndexFile());
      shuffle.finish();
    } catch (IOException e) {
      return shuffle.writtenAsTez(TezShuffleOutput.of(getContext(), conf), e);
    }
    shuffle.deleteOutput(conf, finished.getFinalOutputFile(), finished.getFinalIndexFile());
    return shuffle.report();
  }
}
