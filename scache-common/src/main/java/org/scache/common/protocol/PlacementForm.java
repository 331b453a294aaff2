package org.scache.common.protocol;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

  /**
   * Reads a placement; each worker it names is one object however many reduces it names it for, as in the master
   * that made it, so that a placement read takes about the memory of the one written.
   */
  static ShufflePlacement read(WireReader in) throws MalformedMessageException {
    String app = in.readNonEmptyString("application id");
    int shuffle = in.readNonNegativeInt("shuffle id");
    String policy = in.readString("policy");
    Map<WorkerInfo, WorkerInfo> workers = new HashMap<>();
    List<ReduceAssignment> assignments = in.readList("assignments", ASSIGNMENT_MIN_BYTES,
        r -> readAssignment(r, workers));
    return new ShufflePlacement(app, shuffle, policy, assignments);
  }

  /** The bytes {@link #write} writes for {@code placement}. */
  static long encodedBytes(ShufflePlacement placement) {
    Map<WorkerInfo, Integer> workers = new HashMap<>();
    long bytes = 2 + utf8Length(placement.appId()) + 4 + 2 + utf8Length(placement.policy()) + 4;
    for (ReduceAssignment a : placement.assignments()) {
      bytes += workers.computeIfAbsent(a.worker(), PlacementForm::assignmentBytes);
    }
    return bytes;
  }

  /** The bytes one assignment to {@code worker} takes. */
  static int assignmentBytes(WorkerInfo worker) {
    return 4 + 2 + utf8Length(worker.workerId()) + 2 + utf8Length(worker.host()) + 4 + 4 + 8;
  }

  private static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  private static void writeAssignment(WireWriter out, ReduceAssignment a) {
    WorkerForm.write(out.writeInt(a.reduceId()), a.worker()).writeInt(a.round()).writeLong(a.predictedBytes());
  }

  private static ReduceAssignment readAssignment(WireReader in, Map<WorkerInfo, WorkerInfo> workers)
      throws MalformedMessageException {
    int reduceId = in.readNonNegativeInt("reduce id");
    WorkerInfo read = WorkerForm.read(in);
    WorkerInfo worker = workers.computeIfAbsent(read, w -> w);
    int round = in.readNonNegativeInt("round");
    long predicted = in.readLong("predicted bytes");
    if (predicted < ReduceAssignment.UNKNOWN_SIZE) {
      throw new MalformedMessageException("predicted bytes " + predicted + " below " + ReduceAssignment.UNKNOWN_SIZE);
    }
    return new ReduceAssignment(reduceId, worker, round, predicted);
  }
}
