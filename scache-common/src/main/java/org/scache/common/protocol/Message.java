package org.scache.common.protocol;

/**
 * Every request and answer SCache sends: one record per {@link MessageType} in this package, which
 * writes its own fields ({@link #write}) and reads them back (its static {@code read}, which its type
 * names). Bulk bytes (block data) travel beside a message as the frame's payload, never inside it.
 * Only this package can add a message: {@link #write} takes its package-private {@code WireWriter}.
 */
public interface Message {

  /** The type whose id the frame carries. */
  MessageType type();

  /** Writes this message's fields, in the order {@code docs/protocol.md} lists them: the frame's metadata. */
  void write(WireWriter out);

  /** A request that acts for one application: only it, or a daemon on its behalf, may send it ({@link MaySend}). */
  interface ForApplication {
    /** The application the request acts for. */
    String appId();
  }
}
