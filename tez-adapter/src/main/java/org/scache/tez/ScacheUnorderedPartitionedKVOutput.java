package org.scache.tez;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.tez.common.TezRuntimeFrameworkConfigs;
import org.apache.tez.common.TezUtils;
import org.apache.tez.common.counters.TaskCounter;
import org.apache.tez.runtime.api.AbstractLogicalOutput;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.OutputContext;
import org.apache.tez.runtime.api.Writer;
import org.apache.tez.runtime.api.events.CompositeDataMovementEvent;
import org.apache.tez.runtime.api.events.VertexManagerEvent;
import org.apache.tez.runtime.library.api.TezRuntimeConfiguration;
import org.apache.tez.runtime.library.common.MemoryUpdateCallbackHandler;
import org.apache.tez.runtime.library.common.writers.ScacheWriterFiles;
import org.apache.tez.runtime.library.common.writers.UnorderedPartitionedKVWriter;
import org.apache.tez.runtime.library.output.UnorderedPartitionedKVOutput;

/**
 * The producer side of an unordered scatter-gather edge through SCache. Records are partitioned (and
 * buffered and spilled) by Tez's own UnorderedPartitionedKVWriter, always into one final file; at close
 * each partition's IFile segment is put on the node's SCache worker as one block, the attempt is
 * declared final, and the consumers are told so in a data movement event of their own format. When the
 * DAG does not enable SCache it is Tez's UnorderedPartitionedKVOutput.
 */
public class ScacheUnorderedPartitionedKVOutput extends AbstractLogicalOutput {
  private UnorderedPartitionedKVOutput tez;
  private Configuration conf;
  private MemoryUpdateCallbackHandler memory;
  private UnorderedPartitionedKVWriter writer;
  private ProducerShuffle shuffle;
  /** Why SCache refused this attempt's registration, if it did. */
  private IOException refused;
  private boolean closed;

  public ScacheUnorderedPartitionedKVOutput(OutputContext outputContext, int numPhysicalOutputs) {
    super(outputContext, numPhysicalOutputs);
  }

  @Override
  public synchronized List<Event> initialize() throws Exception {
    conf = TezUtils.createConfFromBaseConfAndPayload(getContext());
    if (!TezScacheSettings.enabled(conf)) {
      tez = new UnorderedPartitionedKVOutput(getContext(), getNumPhysicalOutputs());
      return tez.initialize();
    }
    conf.setStrings(TezRuntimeFrameworkConfigs.LOCAL_DIRS, getContext().getWorkDirs());
    conf.setInt(TezRuntimeFrameworkConfigs.TEZ_RUNTIME_NUM_EXPECTED_PARTITIONS, getNumPhysicalOutputs());
    // one final file per attempt, whose partitions become the blocks
    conf.setBoolean(TezRuntimeConfiguration.TEZ_RUNTIME_ENABLE_FINAL_MERGE_IN_OUTPUT, true);
    conf.setBoolean(TezRuntimeConfiguration.TEZ_RUNTIME_PIPELINED_SHUFFLE_ENABLED, false);
    conf.setBoolean(TezRuntimeConfiguration.TEZ_RUNTIME_TRANSFER_DATA_VIA_EVENTS_ENABLED, false);
    memory = new MemoryUpdateCallbackHandler();
    getContext().requestInitialMemory(UnorderedPartitionedKVWriter.getInitialMemoryRequirement(conf,
        getContext().getTotalMemoryAvailableToTask()), memory);
    return new ArrayList<>();
  }

  @Override
  public synchronized void start() throws Exception {
    if (tez != null) {
      tez.start();
      return;
    }
    if (writer == null) {
      memory.validateUpdateReceived();
      try {
        shuffle = ProducerShuffle.open(getContext(), conf, getNumPhysicalOutputs());
      } catch (IOException e) {
        refused = e; // the output is written as Tez's shuffle all the same: its consumers read it from there
      }
      writer = new UnorderedPartitionedKVWriter(getContext(), conf, getNumPhysicalOutputs(),
          memory.getMemoryAssigned());
    }
  }

  @Override
  public synchronized Writer getWriter() throws Exception {
    if (tez != null) {
      return tez.getWriter();
    }
    if (writer == null) {
      throw new IllegalStateException("Cannot get writer before starting the Output");
    }
    return writer;
  }

  @Override
  public void handleEvents(List<Event> outputEvents) {
    if (tez != null) {
      tez.handleEvents(outputEvents);
    }
  }

  @Override
  public synchronized List<Event> close() throws Exception {
    if (tez != null) {
      return tez.close();
    }
    if (closed) {
      return new ArrayList<>();
    }
    closed = true;
    if (writer == null) {
      // never started by the processor: its partitions are put as empty blocks, so a missing block means a lost one
      start();
    }
    try {
      List<Event> events = new ArrayList<>();
      for (Event e : writer.close()) {
        if (!(e instanceof CompositeDataMovementEvent)) {
          events.add(e); // Tez's partition statistics for the vertex manager
        }
      }
      ProducerReport produced = stored(ScacheWriterFiles.of(writer));
      getContext().getStatisticsReporter().reportDataSize(
          getContext().getCounters().findCounter(TaskCounter.OUTPUT_BYTES).getValue());
      getContext().getStatisticsReporter().reportItemsProcessed(
          getContext().getCounters().findCounter(TaskCounter.OUTPUT_RECORDS).getValue());
      ByteBuffer report = produced.encode();
      events.add(VertexManagerEvent.create(getContext().getDestinationVertexName(), report.duplicate()));
      events.add(CompositeDataMovementEvent.create(0, getNumPhysicalOutputs(), report));
      writer = null;
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
   * Puts the writer's final output (or, when it wrote none, an empty block per partition) into SCache and declares
   * the attempt final; when SCache does not take it all, the file stays where Tez's shuffle service serves it,
   * and the report says so.
   */
  private ProducerReport stored(Optional<Path[]> files) throws IOException {
    TezShuffleOutput served = files.isPresent() ? TezShuffleOutput.of(getContext(), conf) : TezShuffleOutput.EMPTY;
    if (shuffle == null) {
      return ProducerShuffle.refusedAtStart(getContext(), conf, getNumPhysicalOutputs(), served, refused);
    }
    try {
      if (files.isPresent()) {
        shuffle.putPartitions(conf, files.get()[0], files.get()[1]);
      } else {
        shuffle.putEmptyPartitions();
      }
      shuffle.finish();
    } catch (IOException e) {
      return shuffle.writtenAsTez(served, e);
    }
    if (files.isPresent()) {
      shuffle.deleteOutput(conf, files.get()[0], files.get()[1]);
    }
    return shuffle.report();
  }
}
