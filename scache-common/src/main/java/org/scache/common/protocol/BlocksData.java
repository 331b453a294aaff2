package org.scache.common.protocol;

import java.util.List;
import org.scache.common.shuffle.BlockSize;

/**
 * Several blocks; their bytes follow as the frame's payload, concatenated in list order.
 * {@code numMaps} and {@code finishedMaps} tell whether a reduce's input is complete.
 */
public record BlocksData(int numMaps, int finishedMaps, List<BlockSize> blocks) implements Message {
  public BlocksData {
    blocks = List.copyOf(blocks);
  }

  public long totalBytes() {
    long total = 0;
    for (BlockSize b : blocks) {
      total += b.size();
    }
    return total;
  }

  @Override
  public MessageType type() {
    return MessageType.BLOCKS_DATA;
  }

  @Override
  public void write(WireWriter out) {
    out.writeInt(numMaps).writeInt(finishedMaps).writeList(blocks, BlockSizeForm::write);
  }

  /** Reads what {@link #write} writes. */
  static BlocksData read(WireReader in) throws MalformedMessageException {
    int maps = in.readNonNegativeInt("map count");
    int finished = in.readNonNegativeInt("finished map count");
    return new BlocksData(maps, finished, in.readList("blocks", BlockSizeForm.MIN_BYTES, BlockSizeForm::read));
  }
}
