package org.scache.common.protocol;

import java.util.List;

/** Answers a heartbeat with the held applications that have been removed. */
public record HeartbeatAck(List<String> removedApps) implements Message {
  public HeartbeatAck {
    removedApps = List.copyOf(removedApps);
  }

  @Override
  public MessageType type() {
    return MessageType.HEARTBEAT_ACK;
  }

  @Override
  public void write(WireWriter out) {
    out.writeStrings(removedApps);
  }

  /** Reads what {@link #write} writes. */
  static HeartbeatAck read(WireReader in) throws MalformedMessageException {
    return new HeartbeatAck(in.readStrings("removed apps"));
  }
}
