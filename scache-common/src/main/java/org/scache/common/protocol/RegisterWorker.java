package org.scache.common.protocol;

import org.scache.common.WorkerInfo;

/** Worker to master: here I am, with this much memory reserved and used. */
public record RegisterWorker(WorkerInfo worker, long reservedBytes, long usedBytes) implements Message {
  @Override
  public MessageType type() {
    return MessageType.REGISTER_WORKER;
  }

  @Override
  public void write(WireWriter out) {
    WorkerForm.write(out, worker).writeLong(reservedBytes).writeLong(usedBytes);
  }

  /** Reads what {@link #write} writes. */
  static RegisterWorker read(WireReader in) throws MalformedMessageException {
    return new RegisterWorker(WorkerForm.read(in), in.readNonNegativeLong("reserved bytes"),
        in.readNonNegativeLong("used bytes"));
  }
}
