package org.scache.common.protocol;

import java.util.List;
import org.scache.common.shuffle.ShuffleActivity;

/**
 * Worker to master, with its heartbeats: what it holds on disk, and per shuffle what it prefetched and
 * read since the last report. Feeds the master's status page and metrics only.
 */
public record ReportWorkerActivity(String workerId, long spilledBytes, long spillFileBytes,
    List<ShuffleActivity> shuffles) implements Message {
  public ReportWorkerActivity {
    shuffles = List.copyOf(shuffles);
  }

  @Override
  public MessageType type() {
    return MessageType.REPORT_WORKER_ACTIVITY;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(workerId).writeLong(spilledBytes).writeLong(spillFileBytes)
        .writeList(shuffles, ReportWorkerActivity::writeShuffle);
  }

  /** Reads what {@link #write} writes. */
  static ReportWorkerActivity read(WireReader in) throws MalformedMessageException {
    String worker = in.readNonEmptyString("worker id");
    long spilled = in.readNonNegativeLong("spilled bytes");
    long spillFiles = in.readNonNegativeLong("spill file bytes");
    List<ShuffleActivity> shuffles = in.readList("shuffles", 2 + 1 + 4 + 8 + 8 + 8 + 4,
        ReportWorkerActivity::readShuffle);
    return new ReportWorkerActivity(worker, spilled, spillFiles, shuffles);
  }

  private static void writeShuffle(WireWriter out, ShuffleActivity a) {
    out.writeString(a.appId()).writeInt(a.shuffleId()).writeLong(a.prefetchedBytes()).writeLong(a.localReadBytes())
        .writeLong(a.remoteReadBytes()).writeList(a.reads(), ReportWorkerActivity::writeRead);
  }

  private static void writeRead(WireWriter out, ShuffleActivity.ReduceRead read) {
    out.writeInt(read.reduceId()).writeFlag(read.placementKnown()).writeLong(read.localBytes())
        .writeLong(read.remoteBytes());
  }

  private static ShuffleActivity readShuffle(WireReader in) throws MalformedMessageException {
    String app = in.readNonEmptyString("application id");
    int shuffle = in.readNonNegativeInt("shuffle id");
    long prefetched = in.readNonNegativeLong("prefetched bytes");
    long local = in.readNonNegativeLong("local read bytes");
    long remote = in.readNonNegativeLong("remote read bytes");
    List<ShuffleActivity.ReduceRead> reads = in.readList("reduce reads", 4 + 1 + 8 + 8, ReportWorkerActivity::readRead);
    return new ShuffleActivity(app, shuffle, prefetched, local, remote, reads);
  }

  private static ShuffleActivity.ReduceRead readRead(WireReader in) throws MalformedMessageException {
    int reduce = in.readNonNegativeInt("reduce id");
    int flag = in.readUnsignedByte("placement known");
    if (flag > 1) {
      throw new MalformedMessageException("placement known must be 0 or 1: " + flag);
    }
    return new ShuffleActivity.ReduceRead(reduce, flag == 1, in.readNonNegativeLong("local bytes"),
        in.readNonNegativeLong("remote bytes"));
  }
}
