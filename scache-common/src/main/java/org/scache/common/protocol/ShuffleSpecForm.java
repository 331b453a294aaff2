package org.scache.common.protocol;

import java.util.List;
import java.util.Optional;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.PredictorKind;
import org.scache.common.shuffle.ShuffleSpec;

/**
 * A {@link ShuffleSpec} on the wire, as {@code docs/protocol.md} lists its fields. The last three
 * were added later: a form that ends before them, as a master of an earlier version stored it, reads
 * with each reduce read on its own, reduces started before the maps end, and one map per task.
 */
final class ShuffleSpecForm {
  private ShuffleSpecForm() {}

  static WireWriter write(WireWriter out, ShuffleSpec spec) {
    return out.writeString(spec.appId()).writeInt(spec.shuffleId()).writeInt(spec.numMaps())
        .writeInt(spec.numReduces()).writeByte(WireCodes.partitioner(spec.partitioner()))
        .writeLong(spec.submissionTimeMillis()).writeList(spec.mapInputBytes(), WireWriter::writeLong)
        .writeInt(spec.stageId()).writeByte(WireCodes.predictor(spec.predictor())).writeInt(spec.slotsPerWorker())
        .writeFlag(spec.readsRanges()).writeFlag(spec.reducesAfterMaps()).writeInt(spec.mapsPerTask());
  }

  static ShuffleSpec read(WireReader in) throws MalformedMessageException {
    String app = in.readNonEmptyString("application id");
    int shuffle = in.readNonNegativeInt("shuffle id");
    int maps = in.readNonNegativeInt("map count");
    int reduces = in.readNonNegativeInt("reduce count");
    int kind = in.readUnsignedByte("partitioner kind");
    PartitionerKind partitioner = WireCodes.partitioner(kind)
        .orElseThrow(() -> new MalformedMessageException("unknown partitioner kind " + kind));
    long submitted = in.readLong("submission time");
    List<Long> inputBytes = in.readList("map input sizes", 8, r -> r.readNonNegativeLong("map input size"));
    int stage = in.readInt("stage id");
    if (stage < ShuffleSpec.NO_STAGE) {
      throw new MalformedMessageException("stage id must be -1 (none) or a stage id: " + stage);
    }
    int choice = in.readUnsignedByte("predictor");
    Optional<PredictorKind> predictor = WireCodes.predictor(choice)
        .orElseThrow(() -> new MalformedMessageException("unknown predictor " + choice));
    int slots = in.readNonNegativeInt("slots per worker");
    // absent from the forms a master of an earlier version stored: each reduce read on its own
    boolean ranges = in.hasMore() && in.readFlag("reads ranges");
    boolean afterMaps = in.hasMore() && in.readFlag("reduces after maps");
    int mapsPerTask = in.hasMore() ? in.readNonNegativeInt("maps per task") : 1;
    if (mapsPerTask < 1 || maps % mapsPerTask != 0) {
      throw new MalformedMessageException("maps per task must be at least 1 and divide the " + maps + " maps: "
          + mapsPerTask);
    }
    return new ShuffleSpec(app, shuffle, maps, reduces, partitioner, submitted, inputBytes, stage, predictor, slots,
        ranges, afterMaps, mapsPerTask);
  }
}
