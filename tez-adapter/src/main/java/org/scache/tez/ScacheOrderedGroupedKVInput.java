package org.scache.tez;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.tez.dag.api.TezException;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.InputContext;
import org.apache.tez.runtime.library.common.sort.impl.TezRawKeyValueIterator;
import org.apache.tez.runtime.library.input.OrderedGroupedKVInput;

/**
 * The consumer side of an ordered scatter-gather edge through SCache: it reads the task's partition
 * of every producer from the node's SCache worker and merges it with Tez's MergeManager, then
 * groups values by key with Tez's ValuesIterator, exactly what OrderedGroupedKVInput hands a
 * processor. When the DAG does not enable SCache it is Tez's OrderedGroupedKVInput.
 */
public class ScacheOrderedGroupedKVInput extends OrderedGroupedKVInput {
  private boolean useScache;
  private ScacheInputShuffle<TezRawKeyValueIterator> scache;
  private final List<Event> early = new ArrayList<>();

  public ScacheOrderedGroupedKVInput(InputContext inputContext, int numPhysicalInputs) {
    super(inputContext, numPhysicalInputs);
  }

  @Override
  public synchronized List<Event> initialize() throws IOException {
    List<Event> events = super.initialize();
    useScache = TezScacheSettings.enabled(conf) && getNumPhysicalInputs() > 0;
    return events;
  }

  @Override
  public synchronized void start() throws IOException {
    if (!useScache) {
      super.start();
      return;
    }
    if (scache == null) {
      memoryUpdateCallbackHandler.validateUpdateReceived();
      scache = new ScacheInputShuffle<>(getContext(), conf, getNumPhysicalInputs(),
          new MergingSegments(getContext(), conf, memoryUpdateCallbackHandler.getMemoryAssigned()));
      scache.start();
      scache.handleEvents(early);
      early.clear();
    }
  }

  @Override
  public void handleEvents(List<Event> inputEvents) throws IOException {
    ScacheInputShuffle<TezRawKeyValueIterator> s;
    synchronized (this) {
      if (!useScache) {
        s = null;
      } else if (scache == null) {
        early.addAll(inputEvents);
        return;
      } else {
        s = scache;
      }
    }
    if (s == null) {
      super.handleEvents(inputEvents);
    } else {
      s.handleEvents(inputEvents);
    }
  }

  @Override
  public synchronized boolean isInputReady() throws IOException, InterruptedException, TezException {
    if (!useScache) {
      return super.isInputReady();
    }
    return scache != null && scache.isInputReady();
  }

  @Override
  public void waitForInputReady() throws IOException, InterruptedException, TezException {
    ScacheInputShuffle<TezRawKeyValueIterator> s;
    synchronized (this) {
      if (!useScache) {
        s = null;
      } else {
        if (scache == null) {
          throw new IllegalStateException("Must start input before invoking this method");
        }
        s = scache;
      }
    }
    if (s == null) {
      super.waitForInputReady();
      return;
    }
    TezRawKeyValueIterator merged = s.waitForInput();
    synchronized (this) {
      rawIter = merged;
      createValuesIterator();
    }
  }

  @Override
  public synchronized List<Event> close() throws IOException {
    if (useScache) {
      if (rawIter != null) {
        rawIter.close();
        rawIter = null;
      }
      if (scache != null) {
        scache.shutdown();
      }
    }
    return super.close();
  }
}
