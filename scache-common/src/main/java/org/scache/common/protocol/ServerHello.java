package org.scache.common.protocol;

import java.util.Arrays;

/** The first frame on every connection, from the accepting side: the nonce signed requests cover. */
public record ServerHello(byte[] nonce) implements Message {
  public ServerHello {
    if (nonce.length != ChannelBinding.NONCE_LENGTH) {
      throw new IllegalArgumentException("a connection nonce has " + ChannelBinding.NONCE_LENGTH + " bytes, not "
          + nonce.length);
    }
    nonce = nonce.clone();
  }

  @Override
  public byte[] nonce() {
    return nonce.clone();
  }

  @Override
  public MessageType type() {
    return MessageType.SERVER_HELLO;
  }

  @Override
  public void write(WireWriter out) {
    out.writeBytes(nonce);
  }

  /** Reads what {@link #write} writes. */
  static ServerHello read(WireReader in) throws MalformedMessageException {
    return new ServerHello(in.readBytes("nonce"));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ServerHello h && Arrays.equals(h.nonce, nonce);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(nonce);
  }

  @Override
  public String toString() {
    return "ServerHello[<" + nonce.length + " bytes>]";
  }
}
