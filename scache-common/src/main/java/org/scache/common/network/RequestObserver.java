package org.scache.common.network;

import org.scache.common.protocol.MessageType;
import org.scache.common.protocol.Status;

/** Told of every request a server answered: its type, the answer's status, and how long it took. */
@FunctionalInterface
public interface RequestObserver {
  RequestObserver NONE = (request, status, nanos) -> { };

  /**
   * @param request the request's type
   * @param status {@link Status#OK} for an answer, else the error's status
   * @param nanos from the request's metadata read to its answer written out
   */
  void answered(MessageType request, Status status, long nanos);

  /** Called for bad input that never became a request (a frame that could not be decoded). */
  default void refused(Status status) {}
}
