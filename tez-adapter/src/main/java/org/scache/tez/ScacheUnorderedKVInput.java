package org.scache.tez;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.tez.common.TezRuntimeFrameworkConfigs;
import org.apache.tez.common.TezUtils;
import org.apache.tez.common.counters.TaskCounter;
import org.apache.tez.runtime.api.AbstractLogicalInput;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.InputContext;
import org.apache.tez.runtime.api.Reader;
import org.apache.tez.runtime.library.common.MemoryUpdateCallbackHandler;
import org.apache.tez.runtime.library.common.shuffle.impl.SimpleFetchedInputAllocator;
import org.apache.tez.runtime.library.input.UnorderedKVInput;
import org.apache.tez.runtime.library.utils.CodecUtils;

/**
 * The consumer side of an unordered scatter-gather edge through SCache: it reads the task's partition of
 * every producer from the node's SCache worker, holds the segments in memory up to what Tez gives the
 * input (in the task's work directory beyond that), and streams their records in turn, as Tez's
 * UnorderedKVInput hands a processor key-value pairs. {@link #getReader()} returns once every producer's
 * segment is held. When the DAG does not enable SCache it is Tez's UnorderedKVInput.
 */
public class ScacheUnorderedKVInput extends AbstractLogicalInput {
  private UnorderedKVInput tez;
  private Configuration conf;
  private MemoryUpdateCallbackHandler memory;
  private HeldSegments held;
  private ScacheInputShuffle<List<HeldSegments.Segment>> scache;
  private ScacheUnorderedKVReader reader;
  private final List<Event> early = new ArrayList<>();

  public ScacheUnorderedKVInput(InputContext inputContext, int numPhysicalInputs) {
    super(inputContext, numPhysicalInputs);
  }

  @Override
  public synchronized List<Event> initialize() throws Exception {
    conf = TezUtils.createConfFromBaseConfAndPayload(getContext());
    if (!TezScacheSettings.enabled(conf) || getNumPhysicalInputs() == 0) {
      tez = new UnorderedKVInput(getContext(), getNumPhysicalInputs());
      return tez.initialize();
    }
    conf.setStrings(TezRuntimeFrameworkConfigs.LOCAL_DIRS, getContext().getWorkDirs());
    memory = new MemoryUpdateCallbackHandler();
    getContext().requestInitialMemory(SimpleFetchedInputAllocator.getInitialMemoryReq(conf,
        getContext().getTotalMemoryAvailableToTask()), memory);
    return new ArrayList<>();
  }

  @Override
  public synchronized void start() throws IOException {
    if (tez != null) {
      tez.start();
      return;
    }
    if (scache == null) {
      memory.validateUpdateReceived();
      held = new HeldSegments(getContext(), memory.getMemoryAssigned());
      scache = new ScacheInputShuffle<>(getContext(), conf, getNumPhysicalInputs(), held);
      scache.start();
      scache.handleEvents(early);
      early.clear();
    }
  }

  @Override
  public Reader getReader() throws Exception {
    ScacheInputShuffle<List<HeldSegments.Segment>> s;
    synchronized (this) {
      if (tez != null) {
        return tez.getReader();
      }
      if (reader != null) {
        return reader;
      }
      if (scache == null) {
        throw new IllegalStateException("Must start input before invoking this method");
      }
      s = scache;
    }
    List<HeldSegments.Segment> segments = s.waitForInput();
    synchronized (this) {
      if (reader == null) {
        reader = new ScacheUnorderedKVReader(segments, held, conf, CodecUtils.getCodec(conf),
            getContext().getCounters().findCounter(TaskCounter.INPUT_RECORDS_PROCESSED));
      }
      return reader;
    }
  }

  @Override
  public void handleEvents(List<Event> inputEvents) throws Exception {
    ScacheInputShuffle<List<HeldSegments.Segment>> s;
    synchronized (this) {
      if (tez != null) {
        s = null;
      } else if (scache == null) {
        early.addAll(inputEvents);
        return;
      } else {
        s = scache;
      }
    }
    if (s == null) {
      tez.handleEvents(inputEvents);
    } else {
      s.handleEvents(inputEvents);
    }
  }

  @Override
  public synchronized List<Event> close() throws Exception {
    if (tez != null) {
      return tez.close();
    }
    if (reader != null) {
      reader.close();
    }
    if (scache != null) {
      scache.shutdown();
    }
    if (held != null) {
      held.deleteFiles();
    }
    return new ArrayList<>();
  }
}
