package org.scache.common.protocol;

import java.util.List;
import java.util.Objects;
import org.scache.common.shuffle.ReduceMove;
import org.scache.common.shuffle.ShufflePlacement;

/**
 * Master to workers (cluster principal): a shuffle's reduces are placed; each worker prefetches
 * the blocks of the reduces placed on it and of the reduces moved to it. The shuffle's submission
 * time orders shuffles when a worker chooses what to spill (later submitted, spilled first).
 */
public record ShuffleScheduled(ShufflePlacement placement, List<ReduceMove> moves, long submissionTimeMillis)
    implements Message {
  public ShuffleScheduled {
    Objects.requireNonNull(placement, "placement");
    moves = List.copyOf(moves);
  }

  @Override
  public MessageType type() {
    return MessageType.SHUFFLE_SCHEDULED;
  }

  @Override
  public void write(WireWriter out) {
    PlacementForm.write(out, placement).writeList(moves, ShuffleScheduled::writeMove).writeLong(submissionTimeMillis);
  }

  /** Reads what {@link #write} writes. */
  static ShuffleScheduled read(WireReader in) throws MalformedMessageException {
    ShufflePlacement placement = PlacementForm.read(in);
    List<ReduceMove> moves = in.readList("moves", 4 + 4 + 2 * WorkerForm.MIN_BYTES, ShuffleScheduled::readMove);
    return new ShuffleScheduled(placement, moves, in.readLong("submission time"));
  }

  private static void writeMove(WireWriter out, ReduceMove move) {
    out.writeInt(move.shuffleId()).writeInt(move.reduceId());
    WorkerForm.write(WorkerForm.write(out, move.from()), move.to());
  }

  private static ReduceMove readMove(WireReader in) throws MalformedMessageException {
    return new ReduceMove(in.readNonNegativeInt("shuffle id"), in.readNonNegativeInt("reduce id"), WorkerForm.read(in),
        WorkerForm.read(in));
  }
}
