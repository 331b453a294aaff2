package org.scache.common.protocol;

import java.util.List;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;

/**
 * A {@link ShufflePlacement} on the wire: application id, shuffle id, policy, then the assignments,
 * each a reduce id, its worker, its round and its predicted bytes.
 */
final class PlacementForm {
  /** Reduce id, worker, round, predicted bytes. */
  private static final int ASSIGNMENT_MIN_BYTES = 4 + WorkerForm.MIN_BYTES + 4 + 8;

  private PlacementForm() {}

  static WireWriter write(WireWriter out, ShufflePlacement placement) {
    return out.writeString(placement.appId()).writeInt(placement.shuffleId()).writeString(placement.policy())
        .writeList(placement.assignments(), PlacementForm::writeAssignment);
  }

  static ShufflePlacement read(WireReader in) throws MalformedMessageException {
    String app = in.readNonEmptyString("application id");
    int shuffle = in.readNonNegativeInt("shuffle id");
    String policy = in.readString("policy");
    List<ReduceAssignment> assignments = in.readList("assignments", ASSIGNMENT_MIN_BYTES,
        PlacementForm::readAssignment);
    return new ShufflePlacement(app, shuffle, policy, assignments);
  }

  private static void writeAssignment(WireWriter out, ReduceAssignment a) {
    WorkerForm.write(out.writeInt(a.reduceId()), a.worker()).writeInt(a.round()).writeLong(a.predictedBytes());
  }

  private static ReduceAssignment readAssignment(WireReader in) throws MalformedMessageException {
    int reduceId = in.readNonNegativeInt("reduce id");
    WorkerInfo worker = WorkerForm.read(in);
    int round = in.readNonNegativeInt("round");
    long predicted = in.readLong("predicted bytes");
    if (predicted < ReduceAssignment.UNKNOWN_SIZE) {
      throw new MalformedMessageException("predicted bytes " + predicted + " below " + ReduceAssignment.UNKNOWN_SIZE);
    }
    return new ReduceAssignment(reduceId, worker, round, predicted);
  }
}
