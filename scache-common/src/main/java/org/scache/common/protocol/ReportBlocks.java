package org.scache.common.protocol;

import java.util.List;
import org.scache.common.shuffle.BlockSize;

/** Worker to master: the sizes of blocks it has stored, in batches. */
public record ReportBlocks(String workerId, List<BlockSize> blocks) implements Message {
  public ReportBlocks {
    blocks = List.copyOf(blocks);
  }

  @Override
  public MessageType type() {
    return MessageType.REPORT_BLOCKS;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(workerId).writeList(blocks, BlockSizeForm::write);
  }

  /** Reads what {@link #write} writes. */
  static ReportBlocks read(WireReader in) throws MalformedMessageException {
    return new ReportBlocks(in.readNonEmptyString("worker id"),
        in.readList("blocks", BlockSizeForm.MIN_BYTES, BlockSizeForm::read));
  }
}
