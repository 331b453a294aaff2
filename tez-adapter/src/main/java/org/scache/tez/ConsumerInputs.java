package org.scache.tez;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.events.CompositeRoutedDataMovementEvent;
import org.apache.tez.runtime.api.events.DataMovementEvent;
import org.apache.tez.runtime.api.events.InputFailedEvent;

/**
 * What a consumer input knows of its physical inputs, learnt from the events Tez routes to it: for
 * each input index the producer map, partition and the attempt whose output is final (the data
 * movement event's version), which inputs were read, and which attempts became obsolete. Thread
 * safe; waiters are woken on every change.
 */
final class ConsumerInputs {
  /**
   * One physical input: the block (map, attempt, partition) of the edge's shuffle; or, when SCache did not take the
   * producer's output ({@code onTez} not null), that partition of it as Tez's shuffle service serves it.
   */
  record Source(int index, int mapId, int attempt, int partition, TezShuffleOutput onTez) {
    Source(int index, int mapId, int attempt, int partition) {
      this(index, mapId, attempt, partition, null);
    }
  }

  private final Source[] sources;
  private final boolean[] read;
  private int readCount;
  private int shuffleId = -1;
  private String obsoleteAfterRead;

  ConsumerInputs(int numInputs) {
    sources = new Source[numInputs];
    read = new boolean[numInputs];
  }

  synchronized void apply(List<Event> events) {
    for (Event e : events) {
      if (e instanceof CompositeRoutedDataMovementEvent) {
        CompositeRoutedDataMovementEvent c = (CompositeRoutedDataMovementEvent) e;
        for (int i = 0; i < c.getCount(); i++) {
          movement(c.expand(i));
        }
      } else if (e instanceof DataMovementEvent) {
        movement((DataMovementEvent) e);
      } else if (e instanceof InputFailedEvent) {
        failed((InputFailedEvent) e);
      }
    }
    notifyAll();
  }

  private void movement(DataMovementEvent e) {
    ProducerReport r = ProducerReport.require(e.getUserPayload(),
        "data movement event for input " + e.getTargetIndex());
    if (shuffleId >= 0 && r.shuffleId() != shuffleId) {
      throw new IllegalStateException("input " + e.getTargetIndex() + " is of SCache shuffle " + r.shuffleId()
          + " but the edge's other inputs are of shuffle " + shuffleId);
    }
    shuffleId = r.shuffleId();
    int index = e.getTargetIndex();
    Source current = sources[index];
    if (current != null && read[index] && current.attempt() != e.getVersion()) {
      obsoleteAfterRead = "input " + index + " was read from attempt " + current.attempt() + " of map "
          + current.mapId() + " but attempt " + e.getVersion() + " is now final";
      return;
    }
    sources[index] = new Source(index, r.mapId(), e.getVersion(), e.getSourceIndex(), r.onTez());
  }

  private void failed(InputFailedEvent e) {
    int index = e.getTargetIndex();
    Source current = sources[index];
    if (current == null || current.attempt() != e.getVersion()) {
      return;
    }
    if (read[index]) {
      obsoleteAfterRead = "attempt " + current.attempt() + " of map " + current.mapId()
          + " became obsolete after its output was merged";
      return;
    }
    sources[index] = null;
  }

  /** Waits at most {@code millis} for a change. */
  synchronized void awaitChange(long millis) throws InterruptedException {
    if (millis > 0) {
      wait(millis);
    }
  }

  synchronized int shuffleId() {
    return shuffleId;
  }

  synchronized boolean allKnown() {
    for (Source s : sources) {
      if (s == null) {
        return false;
      }
    }
    return true;
  }

  synchronized boolean allRead() {
    return readCount == sources.length;
  }

  synchronized int readCount() {
    return readCount;
  }

  int size() {
    return sources.length;
  }

  /** Inputs with a final attempt that were not read yet. */
  synchronized List<Source> unread() {
    List<Source> out = new ArrayList<>();
    for (int i = 0; i < sources.length; i++) {
      if (sources[i] != null && !read[i]) {
        out.add(sources[i]);
      }
    }
    return out;
  }

  /** The partitions of the known inputs. */
  synchronized Set<Integer> partitions() {
    Set<Integer> out = new TreeSet<>();
    for (Source s : sources) {
      if (s != null) {
        out.add(s.partition());
      }
    }
    return out;
  }

  /** Marks {@code s} read, unless it became obsolete meanwhile (then false: its data must not be used). */
  synchronized boolean markRead(Source s) {
    if (!s.equals(sources[s.index()]) || read[s.index()]) {
      return false;
    }
    read[s.index()] = true;
    readCount++;
    return true;
  }

  /** Whether {@code s} is still the final attempt of its input. */
  synchronized boolean isCurrent(Source s) {
    return s.equals(sources[s.index()]);
  }

  /** Why this consumer attempt cannot finish, when an input it merged became obsolete. */
  synchronized String obsoleteAfterRead() {
    return obsoleteAfterRead;
  }
}
