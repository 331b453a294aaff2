package org.scache.common.protocol;

/**
 * Reads every final-attempt block of one reduce partition. The worker waits up to {@code
 * waitMillis} for every map to finish: {@link #WORKER_DEFAULT_WAIT} uses its configured wait, 0
 * answers at once with the maps finished so far (a partial answer).
 */
public record GetReduceInput(String appId, int shuffleId, int reduceId, long waitMillis)
    implements Message, Message.ForApplication {
  /** Asks the worker to wait as long as it is configured to. */
  public static final long WORKER_DEFAULT_WAIT = -1;

  /** Waits for a complete input, as long as the worker is configured to. */
  public GetReduceInput(String appId, int shuffleId, int reduceId) {
    this(appId, shuffleId, reduceId, WORKER_DEFAULT_WAIT);
  }

  @Override
  public MessageType type() {
    return MessageType.GET_REDUCE_INPUT;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeInt(shuffleId).writeInt(reduceId).writeLong(waitMillis);
  }

  /** Reads what {@link #write} writes. */
  static GetReduceInput read(WireReader in) throws MalformedMessageException {
    return new GetReduceInput(in.readNonEmptyString("application id"), in.readNonNegativeInt("shuffle id"),
        in.readNonNegativeInt("reduce id"), readWait(in));
  }

  /** A wait in milliseconds, or {@link #WORKER_DEFAULT_WAIT}. */
  static long readWait(WireReader in) throws MalformedMessageException {
    long wait = in.readLong("wait");
    if (wait < WORKER_DEFAULT_WAIT) {
      throw new MalformedMessageException("wait must be -1 (worker default) or milliseconds: " + wait);
    }
    return wait;
  }
}
