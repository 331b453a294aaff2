package org.scache.common.protocol;

import java.util.List;
import org.scache.common.shuffle.FinalAttempt;

/**
 * The next part of a reduce partition's input, read as its blocks land on the worker, over a
 * connection that opened the worker's shared memory: the final blocks of the maps not in
 * {@code haveMaps} that the worker holds now, pinned as for {@link PinReduceInput}; when it holds
 * none, the first to land of those on their way to it; when none lands within the worker's fetch
 * timeout, all the rest, fetched from their holders. The maps are waited for as
 * {@link GetReduceInput} waits. An answer without blocks means the client has the whole input.
 *
 * <p>{@code finalAttempts}, when not empty, names the attempt of each map whose block the reader takes (the
 * framework's own record of the final attempts): a worker that holds every one of those blocks reads them without
 * asking the master where the reduce's blocks are; otherwise it asks, as without them.
 */
public record PinReduceInputPart(String appId, int shuffleId, int reduceId, long waitMillis, List<Integer> haveMaps,
    List<FinalAttempt> finalAttempts) implements Message, Message.ForApplication {
  public PinReduceInputPart {
    haveMaps = List.copyOf(haveMaps);
    finalAttempts = List.copyOf(finalAttempts);
  }

  @Override
  public MessageType type() {
    return MessageType.PIN_REDUCE_INPUT_PART;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeInt(shuffleId).writeInt(reduceId).writeLong(waitMillis)
        .writeList(haveMaps, WireWriter::writeInt)
        .writeList(finalAttempts, (w, a) -> w.writeInt(a.mapId()).writeInt(a.attempt()));
  }

  /** Reads what {@link #write} writes. */
  static PinReduceInputPart read(WireReader in) throws MalformedMessageException {
    String app = in.readNonEmptyString("application id");
    int shuffle = in.readNonNegativeInt("shuffle id");
    int reduce = in.readNonNegativeInt("reduce id");
    long wait = GetReduceInput.readWait(in);
    List<Integer> have = in.readList("map ids", 4, r -> r.readNonNegativeInt("map id"));
    List<FinalAttempt> attempts = in.readList("final attempts", 8,
        r -> new FinalAttempt(r.readNonNegativeInt("map id"), r.readNonNegativeInt("attempt")));
    return new PinReduceInputPart(app, shuffle, reduce, wait, have, attempts);
  }
}
