package org.scache.common.protocol;

/**
 * The frame layout every SCache connection speaks, in both directions:
 *
 * <pre>
 * magic          u32  0x53434143 ("SCAC")
 * version        u8   2
 * type           u8   {@link MessageType}
 * flags          u16  bit 0: an auth section opens the metadata
 * request id     i64  chosen by the requester, echoed by the answer
 * meta length    u32  bytes of metadata (auth section included)
 * payload length i64  bytes of bulk data after the metadata
 * [auth section: principal (u16-length UTF-8), proof (u8-length bytes),
 *  sequence (i64), payload digest (u8-length bytes)]
 * metadata       the message's fields, {@link Message#write}
 * payload        opaque bytes (block data), only for types that carry one
 * </pre>
 *
 * <p>The accepting side opens every connection with {@link ServerHello}; see
 * {@link ChannelBinding} for what a signature covers.
 */
public final class Frames {
  public static final int MAGIC = 0x53434143;
  public static final int VERSION = 7;
  public static final int HEADER_LENGTH = 4 + 1 + 1 + 2 + 8 + 4 + 8;
  public static final int FLAG_AUTH = 1;

  private Frames() {}
}
