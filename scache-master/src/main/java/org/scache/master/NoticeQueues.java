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
 * What waited goes to the address the worker had at the latest notice: one that registered again meanwhile, at a new
 * address, gets it there.
 */
final class NoticeQueues {
  private final WorkerNotifier notifier;
  /** The notices waiting for each worker with one message unanswered (none: one unanswered, nothing waits). */
  private final Map<String, Waiting> waiting = new HashMap<>();

  /** The notices waiting for one worker, and the worker as the latest of them named it. */
  private static final class Waiting {
    private WorkerInfo to;
    private final List<MapOutputReady> notices = new ArrayList<>();

    private Waiting(WorkerInfo to) {
      this.to = to;
    }
  }

  NoticeQueues(WorkerNotifier notifier) {
    this.notifier = notifier;
  }

  /** Tells {@code to} of {@code notice} now, or with the next message once the unanswered one is answered. */
  void tell(WorkerInfo to, MapOutputReady notice) {
    synchronized (this) {
      Waiting queue = waiting.get(to.workerId());
      if (queue != null) {
        queue.to = to;
        queue.notices.add(notice);
        return;
      }
      waiting.put(to.workerId(), new Waiting(to));
    }
    send(to, notice);
  }

  private void send(WorkerInfo to, Message m) {
    notifier.tell(to, m).whenComplete((v, e) -> sendWaiting(to));
  }

  /** The unanswered message to {@code to} was answered, or could not be sent: what waited goes in one message. */
  private void sendWaiting(WorkerInfo to) {
    Waiting next;
    synchronized (this) {
      next = waiting.remove(to.workerId());
      if (next == null || next.notices.isEmpty()) {
        return;
      }
      waiting.put(to.workerId(), new Waiting(next.to));
    }
    List<MapOutputReady> notices = next.notices;
    send(next.to, notices.size() == 1 ? notices.get(0) : new MapOutputsReady(notices));
  }

  /** How many workers have a notice unanswered. */
  synchronized int unanswered() {
    return waiting.size();
  }
}
