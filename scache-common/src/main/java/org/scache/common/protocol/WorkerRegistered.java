package org.scache.common.protocol;

/** Answers a worker's registration with the interval its heartbeats are to keep. */
public record WorkerRegistered(long heartbeatIntervalMillis) implements Message {
  @Override
  public MessageType type() {
    return MessageType.WORKER_REGISTERED;
  }

  @Override
  public void write(WireWriter out) {
    out.writeLong(heartbeatIntervalMillis);
  }

  /** Reads what {@link #write} writes. */
  static WorkerRegistered read(WireReader in) throws MalformedMessageException {
    return new WorkerRegistered(in.readNonNegativeLong("heartbeat interval"));
  }
}
