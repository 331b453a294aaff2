package org.scache.common.protocol;

/** Asks a worker for its counters. */
public record GetWorkerStats() implements Message {
  @Override
  public MessageType type() {
    return MessageType.GET_WORKER_STATS;
  }

  @Override
  public void write(WireWriter out) {
    // no fields
  }

  /** Reads what {@link #write} writes. */
  static GetWorkerStats read(WireReader in) throws MalformedMessageException {
    return new GetWorkerStats();
  }
}
