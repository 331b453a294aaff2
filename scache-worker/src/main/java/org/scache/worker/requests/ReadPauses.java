package org.scache.worker.requests;

import io.netty.channel.Channel;
import java.util.EnumSet;
import java.util.Set;
import org.scache.common.network.ReadGate;

/**
 * Why a connection is not read now: a put waits for its memory, or the peer does not read the
 * answers already written. The connection is read again once no reason is left here nor with another
 * part of the pipeline ({@link ReadGate}), so a connection that cannot go on holds at most what one
 * read brought in. Used from the
 * connection's event loop.
 */
final class ReadPauses {
  /** A reason to stop reading a connection. */
  enum Reason {
    /** A put's memory is being made (blocks spill first): its payload would only queue. */
    PUT_WAITS_FOR_MEMORY,
    /** The connection's outbound buffer is past its high water mark: answers would only queue. */
    PEER_NOT_READING
  }

  private final Set<Reason> reasons = EnumSet.noneOf(Reason.class);
  private Runnable onResume = () -> { };

  /** Told each time the connection is read again. */
  void onResume(Runnable action) {
    this.onResume = action;
  }

  void pause(Channel channel, Reason reason) {
    if (reasons.add(reason)) {
      ReadGate.of(channel).pause(reason);
    }
  }

  void resume(Channel channel, Reason reason) {
    if (reasons.remove(reason)) {
      ReadGate.of(channel).resume(reason);
      if (reasons.isEmpty()) {
        onResume.run();
      }
    }
  }

  boolean paused() {
    return !reasons.isEmpty();
  }

  boolean pausedFor(Reason reason) {
    return reasons.contains(reason);
  }
}
