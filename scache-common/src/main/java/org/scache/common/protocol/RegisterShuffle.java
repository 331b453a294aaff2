package org.scache.common.protocol;

import java.util.Objects;
import org.scache.common.shuffle.ShuffleSpec;

/** Registers a shuffle: its shape and what prediction and placement need. */
public record RegisterShuffle(ShuffleSpec shuffle) implements Message, Message.ForApplication {
  public RegisterShuffle {
    Objects.requireNonNull(shuffle, "shuffle");
  }

  public String appId() {
    return shuffle.appId();
  }

  @Override
  public MessageType type() {
    return MessageType.REGISTER_SHUFFLE;
  }

  @Override
  public void write(WireWriter out) {
    ShuffleSpecForm.write(out, shuffle);
  }

  /** Reads what {@link #write} writes. */
  static RegisterShuffle read(WireReader in) throws MalformedMessageException {
    return new RegisterShuffle(ShuffleSpecForm.read(in));
  }
}
