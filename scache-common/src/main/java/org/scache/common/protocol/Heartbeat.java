package org.scache.common.protocol;

import java.util.List;

/**
 * Worker to master, periodically; lists the applications it holds blocks of. {@code blockCount} is what its block
 * limit counts held ({@code ReportBlockRoom}): blocks, or units of heap of which a wide shuffle's block takes one.
 */
public record Heartbeat(String workerId, long reservedBytes, long usedBytes, long blockCount, List<String> heldApps)
    implements Message {
  public Heartbeat {
    heldApps = List.copyOf(heldApps);
  }

  @Override
  public MessageType type() {
    return MessageType.HEARTBEAT;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(workerId).writeLong(reservedBytes).writeLong(usedBytes).writeLong(blockCount)
        .writeStrings(heldApps);
  }

  /** Reads what {@link #write} writes. */
  static Heartbeat read(WireReader in) throws MalformedMessageException {
    return new Heartbeat(in.readNonEmptyString("worker id"), in.readNonNegativeLong("reserved bytes"),
        in.readNonNegativeLong("used bytes"), in.readNonNegativeLong("block count"), in.readStrings("held apps"));
  }
}
