package org.scache.master;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.Message;

/**
 * Sends the master's messages to workers, best effort: a worker that misses one learns what it
 * needs from its next heartbeat or re-registration. The futures complete normally once the worker
 * answered or could not be told, so a caller can order what follows after the message without
 * failing when a worker is gone.
 */
interface WorkerNotifier extends AutoCloseable {
  /** Sends {@code m} to worker {@code w}; completes when it answered or could not be told. */
  CompletableFuture<Void> tell(WorkerInfo w, Message m);

  /** Sends {@code m} to each of {@code workers}; completes when every one answered or could not be told. */
  default CompletableFuture<Void> tellAll(List<WorkerInfo> workers, Message m) {
    return CompletableFuture.allOf(workers.stream().map(w -> tell(w, m)).toArray(CompletableFuture[]::new));
  }

  @Override
  void close();
}
