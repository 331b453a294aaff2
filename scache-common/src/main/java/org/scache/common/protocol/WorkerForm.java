package org.scache.common.protocol;

import org.scache.common.WorkerInfo;

/** A {@link WorkerInfo} on the wire: its id, its host, its port (i32, 1 to 65535). */
final class WorkerForm {
  /** The fewest bytes a worker takes: a one-byte id, an empty host's length, the port. */
  static final int MIN_BYTES = 2 + 1 + 2 + 4;

  private WorkerForm() {}

  static WireWriter write(WireWriter out, WorkerInfo worker) {
    return out.writeString(worker.workerId()).writeString(worker.host()).writeInt(worker.port());
  }

  static WorkerInfo read(WireReader in) throws MalformedMessageException {
    String id = in.readNonEmptyString("worker id");
    String host = in.readNonEmptyString("worker host");
    int port = in.readInt("worker port");
    if (port <= 0 || port > 65535) {
      throw new MalformedMessageException("worker port out of range: " + port);
    }
    return new WorkerInfo(id, host, port);
  }
}
