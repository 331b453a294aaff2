package org.scache.common.protocol;

/** Asks the master for the placement of a shuffle's reduces. */
public record GetScheduleResult(String appId, int shuffleId) implements Message, Message.ForApplication {
  @Override
  public MessageType type() {
    return MessageType.GET_SCHEDULE_RESULT;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeInt(shuffleId);
  }

  /** Reads what {@link #write} writes. */
  static GetScheduleResult read(WireReader in) throws MalformedMessageException {
    return new GetScheduleResult(in.readNonEmptyString("application id"), in.readNonNegativeInt("shuffle id"));
  }
}
