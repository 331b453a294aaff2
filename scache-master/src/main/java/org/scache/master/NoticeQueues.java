package org.scache.master;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.MapOutputReady;
import org.scache.common.protocol.MapOutputsReady;
import org.scache.common.protocol.Message;

/**
 * Tells workers of finished maps' blocks ({@link MapOutputReady}) with at most one such message unanswered per worker:
 * the notices made while one is unanswered wait, and go together in one {@link MapOutputsReady} once it is answered
 * (or could not be sent). Once a shuffle's reduces outnumber the workers, every map's end would otherwise send a
 * message to nearly every worker; this way a worker gets as many as it can answer, each carrying what waited, and the
 * master encodes, signs and sends that many. A notice waits at most one round trip; each worker's stay in order.
 */
final class NoticeQueues {
  private final WorkerNotifier notifier;
  /** The notices waiting for each worker with one message unanswered (empty: one unanswered, nothing waits). */
  private final Map<String, List<MapOutputReady>> waiting = new HashMap<>();

  NoticeQueues(WorkerNotifier notifier) {
    this.notifier = notifier;
  }

  /** Tells {@code to} of {@code notice} now, or with the next message once the unanswered one is answered. */
  void tell(WorkerInfo to, MapOutputReady notice) {
    synchronized (this) {
      List<MapOutputReady> queue = waiting.get(to.workerId());
      if (queue != null) {
        queue.add(notice);
        return;
      }
      waiting.put(to.workerId(), new ArrayList<>());
    }
    send(to, notice);
  }

  private void send(WorkerInfo to, Message m) {
    notifier.tell(to, m).whenComplete((v, e) -> sendWaiting(to));
  }

  /** The unanswered message to {@code to} was answered, or could not be sent: what waited goes in one message. */
  private void sendWaiting(WorkerInfo to) {
    List<MapOutputReady> next;
    synchronized (this) {
      next = waiting.remove(to.workerId());
      if (next == null || next.isEmpty()) {
        return;
      }
      waiting.put(to.workerId(), new ArrayList<>());
    }
    send(to, next.size() == 1 ? next.get(0) : new MapOutputsReady(next));
  }

  /** How many workers have a notice unanswered. */
  synchronized int unanswered() {
    return waiting.size();
  }
}
