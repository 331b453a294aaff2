package org.scache.common.protocol;

import java.util.List;

/**
 * Master to a worker reduces are placed on (cluster principal): several {@link MapOutputReady} notices at once, in
 * the order they were made, the ones that waited while an earlier notice to the worker was unanswered.
 */
public record MapOutputsReady(List<MapOutputReady> notices) implements Message {
  /** App, shuffle, map, attempt, holder (a one-byte id, empty host, port), an empty list of blocks. */
  private static final int NOTICE_MIN_BYTES = 2 + 1 + 4 + 4 + 4 + WorkerForm.MIN_BYTES + 4;

  public MapOutputsReady {
    notices = List.copyOf(notices);
  }

  @Override
  public MessageType type() {
    return MessageType.MAP_OUTPUTS_READY;
  }

  @Override
  public void write(WireWriter out) {
    out.writeList(notices, (w, n) -> n.write(w));
  }

  /** Reads what {@link #write} writes. */
  static MapOutputsReady read(WireReader in) throws MalformedMessageException {
    return new MapOutputsReady(in.readList("notices", NOTICE_MIN_BYTES, MapOutputReady::read));
  }
}
