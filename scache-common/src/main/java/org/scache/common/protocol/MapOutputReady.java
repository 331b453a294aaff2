package org.scache.common.protocol;

import java.util.List;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.BlockSize;

/**
 * Master to the worker a reduce is placed on (cluster principal): a map finished after the
 * schedule, and these of its final-attempt blocks, held by {@code holder}, belong to reduces
 * placed on the receiver.
 */
public record MapOutputReady(String appId, int shuffleId, int mapId, int attempt, WorkerInfo holder,
    List<BlockSize> blocks) implements Message {
  public MapOutputReady {
    blocks = List.copyOf(blocks);
  }

  @Override
  public MessageType type() {
    return MessageType.MAP_OUTPUT_READY;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeInt(shuffleId).writeInt(mapId).writeInt(attempt);
    WorkerForm.write(out, holder).writeList(blocks, BlockSizeForm::write);
  }

  /** Reads what {@link #write} writes. */
  static MapOutputReady read(WireReader in) throws MalformedMessageException {
    String app = in.readNonEmptyString("application id");
    int shuffle = in.readNonNegativeInt("shuffle id");
    int map = in.readNonNegativeInt("map id");
    int attempt = in.readNonNegativeInt("attempt");
    WorkerInfo holder = WorkerForm.read(in);
    List<BlockSize> blocks = in.readList("blocks", BlockSizeForm.MIN_BYTES, BlockSizeForm::read);
    return new MapOutputReady(app, shuffle, map, attempt, holder, blocks);
  }
}
