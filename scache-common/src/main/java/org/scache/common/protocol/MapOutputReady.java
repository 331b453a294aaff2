package org.scache.common.protocol;

import java.util.List;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.ReduceSizes;

/**
 * Master to the worker a reduce is placed on (cluster principal): a map finished after the
 * schedule, and these of its final-attempt blocks, held by {@code holder}, belong to reduces
 * placed on the receiver. The blocks are named by reduce id under the map attempt's header, each with its size.
 */
public record MapOutputReady(String appId, int shuffleId, int mapId, int attempt, WorkerInfo holder,
    ReduceSizes sizes) implements Message {
  /** An entry's least bytes on the wire: its reduce id and size. */
  private static final int ENTRY_BYTES = 12;

  /** The notice of {@code blocks}, all of the one map attempt named. */
  public MapOutputReady(String appId, int shuffleId, int mapId, int attempt, WorkerInfo holder,
      List<BlockSize> blocks) {
    this(appId, shuffleId, mapId, attempt, holder, ReduceSizes.of(blocks));
  }

  /** The blocks, each named in full. */
  public List<BlockSize> blocks() {
    return sizes.asBlocks(appId, shuffleId, mapId, attempt);
  }

  @Override
  public MessageType type() {
    return MessageType.MAP_OUTPUT_READY;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeInt(shuffleId).writeInt(mapId).writeInt(attempt);
    WorkerForm.write(out, holder).writeInt(sizes.count());
    for (int i = 0; i < sizes.count(); i++) {
      out.writeInt(sizes.reduceId(i)).writeLong(sizes.size(i));
    }
  }

  /** Reads what {@link #write} writes. */
  static MapOutputReady read(WireReader in) throws MalformedMessageException {
    String app = in.readNonEmptyString("application id");
    int shuffle = in.readNonNegativeInt("shuffle id");
    int map = in.readNonNegativeInt("map id");
    int attempt = in.readNonNegativeInt("attempt");
    WorkerInfo holder = WorkerForm.read(in);
    int count = in.readCount("blocks", ENTRY_BYTES);
    ReduceSizes.Builder sizes = ReduceSizes.builder();
    for (int i = 0; i < count; i++) {
      sizes.add(in.readNonNegativeInt("reduce id"), in.readNonNegativeLong("block size"));
    }
    return new MapOutputReady(app, shuffle, map, attempt, holder, sizes.build());
  }
}
