package org.scache.common.protocol;

/**
 * Reads one reduce partition's input as {@link GetReduceInput} does, over a connection that opened
 * the worker's shared memory ({@link OpenLocal}): the blocks the worker holds in that memory come
 * back pinned, to be copied out of the mapping and unpinned, the others (spilled, or fetched from
 * their holders for this read) in the answer's payload. No block crosses the socket that the
 * client can copy out of memory.
 */
public record PinReduceInput(String appId, int shuffleId, int reduceId, long waitMillis)
    implements Message, Message.ForApplication {
  @Override
  public MessageType type() {
    return MessageType.PIN_REDUCE_INPUT;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeInt(shuffleId).writeInt(reduceId).writeLong(waitMillis);
  }

  /** Reads what {@link #write} writes. */
  static PinReduceInput read(WireReader in) throws MalformedMessageException {
    return new PinReduceInput(in.readNonEmptyString("application id"), in.readNonNegativeInt("shuffle id"),
        in.readNonNegativeInt("reduce id"), GetReduceInput.readWait(in));
  }
}
