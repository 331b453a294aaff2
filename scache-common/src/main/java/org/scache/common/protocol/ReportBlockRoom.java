package org.scache.common.protocol;

/**
 * Worker to master, after each registration: the blocks it holds at most, in all and for one owner (a
 * user's applications, or one application), so that the master can tell whether a shuffle's blocks fit
 * in the cluster before its job starts.
 */
public record ReportBlockRoom(String workerId, long maxBlocks, long maxBlocksPerOwner) implements Message {
  @Override
  public MessageType type() {
    return MessageType.REPORT_BLOCK_ROOM;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(workerId).writeLong(maxBlocks).writeLong(maxBlocksPerOwner);
  }

  /** Reads what {@link #write} writes. */
  static ReportBlockRoom read(WireReader in) throws MalformedMessageException {
    return new ReportBlockRoom(in.readNonEmptyString("worker id"), in.readNonNegativeLong("max blocks"),
        in.readNonNegativeLong("max blocks per owner"));
  }
}
