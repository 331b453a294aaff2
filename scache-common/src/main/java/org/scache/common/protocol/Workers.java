package org.scache.common.protocol;

import java.util.List;
import org.scache.common.WorkerInfo;

/** The workers alive, for {@link ListWorkers}. */
public record Workers(List<WorkerInfo> workers) implements Message {
  public Workers {
    workers = List.copyOf(workers);
  }

  @Override
  public MessageType type() {
    return MessageType.WORKERS;
  }

  @Override
  public void write(WireWriter out) {
    out.writeList(workers, WorkerForm::write);
  }

  /** Reads what {@link #write} writes. */
  static Workers read(WireReader in) throws MalformedMessageException {
    return new Workers(in.readList("workers", WorkerForm.MIN_BYTES, WorkerForm::read));
  }
}
