package org.scache.common.protocol;

import java.util.Objects;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.ShufflePlacement;

/** The placement of every reduce of a shuffle, and the name of the policy that made it. */
public record ScheduleResult(ShufflePlacement placement) implements Message {
  public ScheduleResult {
    Objects.requireNonNull(placement, "placement");
  }

  /** The bytes this answer's metadata takes in a frame, its frame's header aside. */
  public long encodedBytes() {
    return PlacementForm.encodedBytes(placement);
  }

  /** The bytes the placement of one reduce takes in an answer, besides its worker's, named once in the answer. */
  public static int bytesPerReduce() {
    return PlacementForm.ASSIGNMENT_BYTES;
  }

  /** The bytes {@code worker} takes in an answer that places reduces on it, however many. */
  public static int bytesPerWorker(WorkerInfo worker) {
    return PlacementForm.workerBytes(worker);
  }

  @Override
  public MessageType type() {
    return MessageType.SCHEDULE_RESULT;
  }

  @Override
  public void write(WireWriter out) {
    PlacementForm.write(out, placement);
  }

  /** Reads what {@link #write} writes. */
  static ScheduleResult read(WireReader in) throws MalformedMessageException {
    return new ScheduleResult(PlacementForm.read(in));
  }
}
