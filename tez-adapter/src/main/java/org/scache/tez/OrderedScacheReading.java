package org.scache.tez;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.InputContext;
import org.apache.tez.runtime.library.common.sort.impl.TezRawKeyValueIterator;

/**
 * How an ordered SCache input reads: its partition of every producer from the node's SCache worker,
 * merged by Tez's MergeManager. Shared by {@link ScacheOrderedGroupedKVInput} and
 * {@link ScacheOrderedGroupedInputLegacy}, which extend different Tez inputs; events that arrive
 * before the input started are kept until it does.
 */
final class OrderedScacheReading {
  private ScacheInputShuffle<TezRawKeyValueIterator> scache;
  private final List<Event> early = new ArrayList<>();

  /** Whether an input of {@code numPhysicalInputs} producers with {@code conf} reads through SCache. */
  static boolean applies(Configuration conf, int numPhysicalInputs) {
    return TezScacheSettings.enabled(conf) && numPhysicalInputs > 0;
  }

  /** Starts reading (once) with {@code memory} bytes for the merge. */
  synchronized void start(InputContext context, Configuration conf, int numPhysicalInputs, long memory)
      throws IOException {
    if (scache == null) {
      scache = new ScacheInputShuffle<>(context, conf, numPhysicalInputs,
          new MergingSegments(context, conf, memory));
      scache.start();
      scache.handleEvents(early);
      early.clear();
    }
  }

  void handleEvents(List<Event> events) {
    ScacheInputShuffle<TezRawKeyValueIterator> s;
    synchronized (this) {
      if (scache == null) {
        early.addAll(events);
        return;
      }
      s = scache;
    }
    s.handleEvents(events);
  }

  synchronized boolean isInputReady() {
    return scache != null && scache.isInputReady();
  }

  /** The merged input, once every producer's partition is read. */
  TezRawKeyValueIterator waitForInput() throws IOException, InterruptedException {
    ScacheInputShuffle<TezRawKeyValueIterator> s;
    synchronized (this) {
      if (scache == null) {
        throw new IllegalStateException("Must start input before invoking this method");
      }
      s = scache;
    }
    return s.waitForInput();
  }

  synchronized void shutdown() {
    if (scache != null) {
      scache.shutdown();
    }
  }
}
