package org.scache.common.protocol;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.scache.common.auth.PayloadDigest;
import org.scache.common.protocol.InboundFrame.AuthTag;

/**
 * The fixed head of a frame ({@link Frames}) as read, and what follows from it: whether a reader with
 * given limits can take the frame, and the frame its metadata makes. Every reader of frames, the
 * event-loop decoder and the blocking connection alike, goes through here.
 */
public record FrameHeader(int magic, int version, int typeId, int flags, long requestId, long metaLength,
    long payloadLength) {
  private static final byte[] NO_NONCE = new byte[0];

  /** Reads the {@link Frames#HEADER_LENGTH} bytes of a header from {@code in}. */
  public static FrameHeader read(ByteBuf in) {
    return new FrameHeader(in.readInt(), in.readUnsignedByte(), in.readUnsignedByte(), in.readUnsignedShort(),
        in.readLong(), in.readUnsignedInt(), in.readLong());
  }

  /** Reads the {@link Frames#HEADER_LENGTH} bytes of a header from {@code in} (big-endian). */
  public static FrameHeader read(ByteBuffer in) {
    return new FrameHeader(in.getInt(), Byte.toUnsignedInt(in.get()), Byte.toUnsignedInt(in.get()),
        Short.toUnsignedInt(in.getShort()), in.getLong(), Integer.toUnsignedLong(in.getInt()), in.getLong());
  }

  /**
   * Why a reader with these limits cannot take this frame, or empty when it can. A fatal failure
   * (bad magic, a length over a limit) means the byte stream cannot be followed; after any other
   * the frame's metadata and payload are to be skipped.
   */
  public Optional<DecodeFailure> problem(int maxMetaLength, long maxPayloadLength) {
    if (magic != Frames.MAGIC) {
      return Optional.of(badMagic(magic));
    }
    if (metaLength > maxMetaLength) {
      return Optional.of(new DecodeFailure(requestId, Status.FRAME_TOO_LARGE, "metadata length " + metaLength
          + " exceeds the limit of " + maxMetaLength, true));
    }
    if (payloadLength < 0 || payloadLength > maxPayloadLength) {
      return Optional.of(new DecodeFailure(requestId, Status.FRAME_TOO_LARGE, "payload length " + payloadLength
          + " exceeds the limit of " + maxPayloadLength, true));
    }
    Optional<MessageType> t = MessageType.fromId(typeId);
    if (version != Frames.VERSION) {
      return Optional.of(new DecodeFailure(requestId, Status.UNSUPPORTED_VERSION, "protocol version " + version
          + " is not supported; this peer speaks " + Frames.VERSION, false));
    }
    if (t.isEmpty()) {
      return Optional.of(new DecodeFailure(requestId, Status.UNKNOWN_MESSAGE_TYPE, "unknown message type " + typeId,
          false));
    }
    if (payloadLength > 0 && !t.get().carriesPayload()) {
      return Optional.of(new DecodeFailure(requestId, Status.MALFORMED_MESSAGE, t.get() + " carries no payload but "
          + payloadLength + " bytes were sent", false));
    }
    return Optional.empty();
  }

  /** The fatal failure of a stream whose next frame starts with {@code magic}, not {@link Frames#MAGIC}. */
  public static DecodeFailure badMagic(int magic) {
    return new DecodeFailure(0, Status.BAD_FRAME, String.format("bad magic 0x%08x: not an SCache frame", magic), true);
  }

  /** The message type; only for a header without a {@link #problem}. */
  public MessageType type() {
    return MessageType.fromId(typeId).orElseThrow(() -> new IllegalStateException("unknown message type " + typeId));
  }

  /** {@link #decode(ByteBuf, byte[])} for a connection that takes no signed frames. */
  public InboundFrame decode(ByteBuf meta) throws MalformedMessageException {
    return decode(meta, NO_NONCE);
  }

  /** {@link #decode(ByteBuffer, byte[])} for a connection that takes no signed frames. */
  public InboundFrame decode(ByteBuffer meta) throws MalformedMessageException {
    return decode(meta, NO_NONCE);
  }

  /** {@link #decode(ByteBuffer, byte[])} of {@code meta}'s readable bytes, moving past what was read. */
  public InboundFrame decode(ByteBuf meta, byte[] nonce) throws MalformedMessageException {
    return WireReader.fromReadable(meta, view -> decode(view, nonce));
  }

  /**
   * The frame whose metadata is {@code meta} (exactly {@link #metaLength} bytes), received on a
   * connection whose nonce is {@code nonce}: the auth section when the frame is signed (principal,
   * proof, then the signed part: sequence number, payload digest if any), then the message; only for a
   * header without a {@link #problem}.
   */
  public InboundFrame decode(ByteBuffer meta, byte[] nonce) throws MalformedMessageException {
    Optional<AuthTag> auth = Optional.empty();
    if ((flags & Frames.FLAG_AUTH) != 0) {
      WireReader r = new WireReader(meta);
      String principal = r.readString("principal");
      int proofLength = r.readUnsignedByte("proof length");
      if (meta.remaining() < proofLength) {
        throw new MalformedMessageException("truncated proof");
      }
      byte[] proof = new byte[proofLength];
      meta.get(proof);
      byte[] signed = new byte[meta.remaining()];
      meta.duplicate().get(signed);
      long sequence = r.readLong("sequence");
      int digestLength = r.readUnsignedByte("payload digest length");
      if (digestLength != 0 && (payloadLength == 0 || digestLength != PayloadDigest.LENGTH)) {
        throw new MalformedMessageException("a signed frame with " + payloadLength + " payload bytes carries a "
            + digestLength + "-byte payload digest; it may carry none or, with a payload, " + PayloadDigest.LENGTH);
      }
      if (meta.remaining() < digestLength) {
        throw new MalformedMessageException("truncated payload digest");
      }
      byte[] digest = new byte[digestLength];
      meta.get(digest);
      auth = Optional.of(new AuthTag(principal, proof, sequence, digest, nonce, signed));
    }
    try {
      return new InboundFrame(requestId, MessageCodec.decode(type(), meta), auth, payloadLength);
    } catch (IllegalArgumentException e) {
      throw new MalformedMessageException(e.getMessage());
    }
  }
}
