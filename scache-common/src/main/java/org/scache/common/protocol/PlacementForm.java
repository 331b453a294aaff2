package org.scache.common.protocol;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;

/**
 * A {@link ShufflePlacement} on the wire: application id, shuffle id, policy, the workers it names, each once, then
 * the assignments, each a reduce id, the index of its worker in that list, its round and its predicted bytes. A
 * placement is told to every worker, so each reduce costs a fixed 20 bytes whatever its worker's names.
 */
final class PlacementForm {
  /** Reduce id, worker index, round, predicted bytes. */
  static final int ASSIGNMENT_BYTES = 4 + 4 + 4 + 8;

  private PlacementForm() {}

  static WireWriter write(WireWriter out, ShufflePlacement placement) {
    Map<WorkerInfo, Integer> index = new HashMap<>();
    List<WorkerInfo> workers = new ArrayList<>();
    int[] indexOf = new int[placement.assignments().size()];
    int i = 0;
    for (ReduceAssignment a : placement.assignments()) {
      indexOf[i++] = index.computeIfAbsent(a.worker(), w -> {
        workers.add(w);
        return workers.size() - 1;
      });
    }
    out.writeString(placement.appId()).writeInt(placement.shuffleId()).writeString(placement.policy())
        .writeList(workers, WorkerForm::write).writeInt(indexOf.length);
    i = 0;
    for (ReduceAssignment a : placement.assignments()) {
      out.writeInt(a.reduceId()).writeInt(indexOf[i++]).writeInt(a.round()).writeLong(a.predictedBytes());
    }
    return out;
  }

  /**
   * Reads a placement; each worker it names is one object however many reduces it names it for, as in the master
   * that made it, so that a placement read takes about the memory of the one written.
   */
  static ShufflePlacement read(WireReader in) throws MalformedMessageException {
    String app = in.readNonEmptyString("application id");
    int shuffle = in.readNonNegativeInt("shuffle id");
    String policy = in.readString("policy");
    List<WorkerInfo> workers = in.readList("workers", WorkerForm.MIN_BYTES, WorkerForm::read);
    List<ReduceAssignment> assignments = in.readList("assignments", ASSIGNMENT_BYTES,
        r -> readAssignment(r, workers));
    return new ShufflePlacement(app, shuffle, policy, assignments);
  }

  /** The bytes {@link #write} writes for {@code placement}. */
  static long encodedBytes(ShufflePlacement placement) {
    Set<WorkerInfo> workers = new HashSet<>();
    long bytes = 2 + utf8Length(placement.appId()) + 4 + 2 + utf8Length(placement.policy()) + 4 + 4;
    for (ReduceAssignment a : placement.assignments()) {
      if (workers.add(a.worker())) {
        bytes += workerBytes(a.worker());
      }
      bytes += ASSIGNMENT_BYTES;
    }
    return bytes;
  }

  /** The bytes {@code worker} takes in a placement's list of workers, once however many reduces it is named for. */
  static int workerBytes(WorkerInfo worker) {
    return 2 + utf8Length(worker.workerId()) + 2 + utf8Length(worker.host()) + 4;
  }

  private static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  private static ReduceAssignment readAssignment(WireReader in, List<WorkerInfo> workers)
      throws MalformedMessageException {
    int reduceId = in.readNonNegativeInt("reduce id");
    int worker = in.readNonNegativeInt("worker index");
    if (worker >= workers.size()) {
      throw new MalformedMessageException("worker index " + worker + " of a placement naming " + workers.size()
          + " workers");
    }
    int round = in.readNonNegativeInt("round");
    long predicted = in.readLong("predicted bytes");
    if (predicted < ReduceAssignment.UNKNOWN_SIZE) {
      throw new MalformedMessageException("predicted bytes " + predicted + " below " + ReduceAssignment.UNKNOWN_SIZE);
    }
    return new ReduceAssignment(reduceId, workers.get(worker), round, predicted);
  }
}
