package org.scache.common.protocol;

import java.util.List;
import org.scache.common.BlockId;

/** Worker to master: blocks this worker held and lost (a spilled copy failed its checksum). */
public record ReportLostBlocks(String workerId, List<BlockId> blockIds) implements Message {
  public ReportLostBlocks {
    blockIds = List.copyOf(blockIds);
  }

  @Override
  public MessageType type() {
    return MessageType.REPORT_LOST_BLOCKS;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(workerId).writeList(blockIds, BlockIdForm::write);
  }

  /** Reads what {@link #write} writes. */
  static ReportLostBlocks read(WireReader in) throws MalformedMessageException {
    return new ReportLostBlocks(in.readNonEmptyString("worker id"),
        in.readList("block ids", BlockIdForm.MIN_BYTES, BlockIdForm::read));
  }
}
