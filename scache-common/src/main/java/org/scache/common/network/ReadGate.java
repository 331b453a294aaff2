package org.scache.common.network;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import java.util.HashSet;
import java.util.Set;

/**
 * Whether a connection is read. Every part of a pipeline that must stop reading a connection (a verdict
 * waits, a put waits for memory, the peer does not read its answers) pauses it here with its own reason,
 * and the connection is read again ({@code autoRead}) only once no part has a reason left; so no part
 * turns reading back on under another. One per channel, used from the channel's event loop.
 */
public final class ReadGate {
  private static final AttributeKey<ReadGate> KEY = AttributeKey.valueOf(ReadGate.class.getName());

  private final Channel channel;
  private final Set<Object> reasons = new HashSet<>();

  private ReadGate(Channel channel) {
    this.channel = channel;
  }

  /** The gate of {@code channel}. */
  public static ReadGate of(Channel channel) {
    ReadGate gate = channel.attr(KEY).get();
    if (gate == null) {
      gate = new ReadGate(channel);
      ReadGate raced = channel.attr(KEY).setIfAbsent(gate);
      gate = raced != null ? raced : gate;
    }
    return gate;
  }

  /** Stops reading the connection for {@code reason}; true when the reason is new. */
  public boolean pause(Object reason) {
    boolean added = reasons.add(reason);
    if (added && reasons.size() == 1) {
      channel.config().setAutoRead(false);
    }
    return added;
  }

  /** Gives up {@code reason}; the connection is read again when it was the last. True when it was held. */
  public boolean resume(Object reason) {
    boolean removed = reasons.remove(reason);
    if (removed && reasons.isEmpty()) {
      channel.config().setAutoRead(true);
    }
    return removed;
  }

  /** Whether some part holds the connection unread. */
  public boolean paused() {
    return !reasons.isEmpty();
  }
}
