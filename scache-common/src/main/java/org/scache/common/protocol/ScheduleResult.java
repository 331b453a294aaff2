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

  /** The bytes the placement of one reduce on {@code worker} takes in an answer. */
  public static int bytesPerReduce(WorkerInfo worker) {
    return PlacementForm.assignmentBytes(worker);
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
