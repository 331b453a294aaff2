package org.scache.common.protocol;

import java.util.List;
import org.scache.common.BlockId;

/** Worker to worker: the blocks stored on the answering worker itself, in this order. */
public record FetchBlocks(List<BlockId> blockIds) implements Message {
  public FetchBlocks {
    blockIds = List.copyOf(blockIds);
  }

  @Override
  public MessageType type() {
    return MessageType.FETCH_BLOCKS;
  }

  @Override
  public void write(WireWriter out) {
    out.writeList(blockIds, BlockIdForm::write);
  }

  /** Reads what {@link #write} writes. */
  static FetchBlocks read(WireReader in) throws MalformedMessageException {
    return new FetchBlocks(in.readList("block ids", BlockIdForm.MIN_BYTES, BlockIdForm::read));
  }
}
