package org.scache.master;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import org.scache.common.ScacheException;
import org.scache.common.WorkerInfo;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.ScheduleResult;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;

/**
 * Keeps every shuffle's placement answerable: a placement is answered (and told to the workers) in one frame, whose
 * metadata a peer takes up to {@code scache.network.frame.meta.max.bytes}. It names each of its workers once and
 * then takes a fixed number of bytes a reduce. A registration whose placement could not fit is refused with
 * LIMIT_EXCEEDED, counting every live worker as named (each at least as long as a worker of a
 * {@value #ASSUMED_NAME_BYTES}-byte id and host); a placement that still outgrows the frame (workers joined later)
 * is answered LIMIT_EXCEEDED, never left without an answer.
 */
final class PlacementFrameLimit {
  /** Bytes of a frame's metadata kept for what surrounds a placement in a frame. */
  static final int HEADROOM = 4096;
  /** The length of a worker's id and host together assumed when the live workers' are shorter. */
  static final int ASSUMED_NAME_BYTES = 48;
  /** The longest policy name a placement is assumed to carry. */
  static final int POLICY_BYTES = 64;
  private static final WorkerInfo ASSUMED = new WorkerInfo("w".repeat(16), "h".repeat(ASSUMED_NAME_BYTES - 16), 1);

  private final int maxFrameMetaBytes;

  PlacementFrameLimit(int maxFrameMetaBytes) {
    this.maxFrameMetaBytes = maxFrameMetaBytes;
  }

  /**
   * The most reduces a shuffle of {@code appId} may have when its placement names workers taking {@code workerBytes}:
   * the frame's metadata, less the headroom, the placement's own fields (ids and a policy name of up to
   * {@value #POLICY_BYTES} bytes) and its workers, over the bytes a reduce takes.
   */
  long maxReduces(String appId, long workerBytes) {
    long fields = 2 + appId.getBytes(StandardCharsets.UTF_8).length + 4 + 2 + POLICY_BYTES + 4 + 4;
    return Math.max(0, (maxFrameMetaBytes - HEADROOM - fields - workerBytes) / ScheduleResult.bytesPerReduce());
  }

  /** The bytes a placement naming every one of {@code live} takes for them, each at least as long as assumed. */
  static long workerBytes(Collection<WorkerInfo> live) {
    int least = ScheduleResult.bytesPerWorker(ASSUMED);
    return live.stream().mapToLong(w -> Math.max(least, ScheduleResult.bytesPerWorker(w))).sum();
  }

  /** Refuses {@code spec} with LIMIT_EXCEEDED when its placement, on workers like {@code live}, would not fit. */
  void checkRegistration(ShuffleSpec spec, Collection<WorkerInfo> live) {
    long workers = workerBytes(live);
    long most = maxReduces(spec.appId(), workers);
    if (spec.numReduces() > most) {
      throw new ScacheException(Status.LIMIT_EXCEEDED, spec.appId() + "/shuffle_" + spec.shuffleId() + " has "
          + spec.numReduces() + " reduces: its placement (" + ScheduleResult.bytesPerReduce() + " bytes a reduce, "
          + workers + " naming the " + live.size() + " live workers) would not fit in the " + maxFrameMetaBytes
          + " bytes of one frame's metadata (" + ScacheOptions.NETWORK_FRAME_META_MAX.key()
          + "), so it could never be answered; a shuffle may have at most " + most + " reduces here");
    }
  }

  /** Refuses to answer {@code placement} with LIMIT_EXCEEDED when it does not fit in a frame. */
  void checkAnswer(ShufflePlacement placement) {
    long bytes = new ScheduleResult(placement).encodedBytes();
    if (bytes + HEADROOM > maxFrameMetaBytes) {
      throw new ScacheException(Status.LIMIT_EXCEEDED, "the placement of " + placement.appId() + "/shuffle_"
          + placement.shuffleId() + " (" + placement.assignments().size() + " reduces) takes " + bytes
          + " bytes, more than one frame's metadata may (" + ScacheOptions.NETWORK_FRAME_META_MAX.key() + " = "
          + maxFrameMetaBytes + ")");
    }
  }
}
