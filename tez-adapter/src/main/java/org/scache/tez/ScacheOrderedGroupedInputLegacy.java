package org.scache.tez;

import java.io.IOException;
import java.util.List;
import org.apache.tez.dag.api.TezException;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.InputContext;
import org.apache.tez.runtime.library.common.sort.impl.TezRawKeyValueIterator;
import org.apache.tez.runtime.library.input.OrderedGroupedInputLegacy;

/**
 * The ordered SCache input for processors that need Tez's legacy input (MapReduce's ReduceProcessor
 * takes only an {@code OrderedGroupedInputLegacy}, whose raw iterator it reads; edge configs built with
 * {@code useLegacyInput()}): reads as {@link ScacheOrderedGroupedKVInput} does, and
 * {@link #getIterator()} hands out the merged input. When the DAG does not enable SCache it is
 * Tez's OrderedGroupedInputLegacy.
 */
public class ScacheOrderedGroupedInputLegacy extends OrderedGroupedInputLegacy {
  private OrderedScacheReading scache;

  public ScacheOrderedGroupedInputLegacy(InputContext inputContext, int numPhysicalInputs) {
    super(inputContext, numPhysicalInputs);
  }

  @Override
  public synchronized List<Event> initialize() throws IOException {
    List<Event> events = super.initialize();
    scache = OrderedScacheReading.applies(conf, getNumPhysicalInputs()) ? new OrderedScacheReading() : null;
    return events;
  }

  @Override
  public synchronized void start() throws IOException {
    if (scache == null) {
      super.start();
      return;
    }
    memoryUpdateCallbackHandler.validateUpdateReceived();
    scache.start(getContext(), conf, getNumPhysicalInputs(), memoryUpdateCallbackHandler.getMemoryAssigned());
  }

  @Override
  public void handleEvents(List<Event> inputEvents) throws IOException {
    OrderedScacheReading s;
    synchronized (this) {
      s = scache;
    }
    if (s == null) {
      super.handleEvents(inputEvents);
    } else {
      s.handleEvents(inputEvents);
    }
  }

  @Override
  public synchronized boolean isInputReady() throws IOException, InterruptedException, TezException {
    return scache == null ? super.isInputReady() : scache.isInputReady();
  }

  @Override
  public void waitForInputReady() throws IOException, InterruptedException, TezException {
    OrderedScacheReading s;
    synchronized (this) {
      s = scache;
    }
    if (s == null) {
      super.waitForInputReady();
      return;
    }
    TezRawKeyValueIterator merged = s.waitForInput();
    synchronized (this) {
      if (rawIter == null) {
        rawIter = merged;
        createValuesIterator();
      }
    }
  }

  @Override
  public synchronized List<Event> close() throws IOException {
    if (scache != null) {
      if (rawIter != null) {
        rawIter.close();
        rawIter = null;
      }
      scache.shutdown();
    }
    return super.close();
  }
}
