package org.scache.master;

import java.util.List;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.Message;

/**
 * Sends the master's messages to workers, best effort: a worker that misses one learns what it
 * needs from its next heartbeat or re-registration.
 */
interface WorkerNotifier extends AutoCloseable {
  /** Sends {@code m} to worker {@code w}. */
  void tell(WorkerInfo w, Message m);

  /** Sends {@code m} to each of {@code workers}. */
  default void tellAll(List<WorkerInfo> workers, Message m) {
    for (WorkerInfo w : workers) {
      tell(w, m);
    }
  }

  @Override
  void close();
}
