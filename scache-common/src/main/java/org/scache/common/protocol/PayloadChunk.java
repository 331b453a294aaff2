package org.scache.common.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;

/**
 * A piece of the payload of the frame decoded just before it. The receiver owns the chunk and
 * must release it; {@link #last()} marks the end of the payload.
 */
public final class PayloadChunk extends DefaultByteBufHolder {
  private final boolean last;

  public PayloadChunk(ByteBuf data, boolean last) {
    super(data);
    this.last = last;
  }

  public boolean last() {
    return last;
  }
}
