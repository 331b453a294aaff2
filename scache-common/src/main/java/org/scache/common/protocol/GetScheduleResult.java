package org.scache.common.protocol;

/**
 * Asks the master for the placement of a shuffle's reduces. With {@code waitMillis} 0, answered at once: the placement
 * made so far, or NOT_READY. With a wait, answered once every map of the shuffle has ended and the shuffle is placed
 * (the placement its reduce stage starts with), or NOT_READY when the wait is over: a driver that asks as its reduce
 * stage is submitted gets the answer as soon as the last map's end reaches the master.
 */
public record GetScheduleResult(String appId, int shuffleId, long waitMillis) implements Message,
    Message.ForApplication {
  /** The longest a request may wait; a master answers NOT_READY then and the asker asks again. */
  public static final long MAX_WAIT_MILLIS = 60_000;

  public GetScheduleResult {
    if (waitMillis < 0 || waitMillis > MAX_WAIT_MILLIS) {
      throw new IllegalArgumentException("wait must be 0 to " + MAX_WAIT_MILLIS + " ms: " + waitMillis);
    }
  }

  /** Asks for the placement made so far, answered at once. */
  public GetScheduleResult(String appId, int shuffleId) {
    this(appId, shuffleId, 0);
  }

  @Override
  public MessageType type() {
    return MessageType.GET_SCHEDULE_RESULT;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeInt(shuffleId).writeLong(waitMillis);
  }

  /** Reads what {@link #write} writes. */
  static GetScheduleResult read(WireReader in) throws MalformedMessageException {
    String app = in.readNonEmptyString("application id");
    int shuffle = in.readNonNegativeInt("shuffle id");
    long wait = in.readLong("wait");
    if (wait < 0 || wait > MAX_WAIT_MILLIS) {
      throw new MalformedMessageException("wait must be 0 to " + MAX_WAIT_MILLIS + " ms: " + wait);
    }
    return new GetScheduleResult(app, shuffle, wait);
  }
}
