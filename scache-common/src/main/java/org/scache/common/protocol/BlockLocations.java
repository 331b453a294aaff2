package org.scache.common.protocol;

import java.util.List;
import org.scache.common.shuffle.BlockLocation;

/** Where the blocks asked for by {@link LocateBlocks} are, and how many of the shuffle's maps have finished. */
public record BlockLocations(int numMaps, int finishedMaps, List<BlockLocation> locations) implements Message {
  public BlockLocations {
    locations = List.copyOf(locations);
  }

  @Override
  public MessageType type() {
    return MessageType.BLOCK_LOCATIONS;
  }

  @Override
  public void write(WireWriter out) {
    out.writeInt(numMaps).writeInt(finishedMaps).writeList(locations, BlockLocations::writeLocation);
  }

  /** Reads what {@link #write} writes. */
  static BlockLocations read(WireReader in) throws MalformedMessageException {
    int maps = in.readNonNegativeInt("map count");
    int finished = in.readNonNegativeInt("finished map count");
    List<BlockLocation> locations = in.readList("locations", BlockIdForm.MIN_BYTES + 8 + WorkerForm.MIN_BYTES,
        BlockLocations::readLocation);
    return new BlockLocations(maps, finished, locations);
  }

  private static void writeLocation(WireWriter out, BlockLocation location) {
    WorkerForm.write(BlockIdForm.write(out, location.blockId()).writeLong(location.size()), location.holder());
  }

  private static BlockLocation readLocation(WireReader in) throws MalformedMessageException {
    return new BlockLocation(BlockIdForm.read(in), in.readNonNegativeLong("block size"), WorkerForm.read(in));
  }
}
