package org.scache.common.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import java.util.Optional;
import org.scache.common.protocol.InboundFrame.AuthTag;

/**
 * Turns bytes into {@link InboundFrame}s, each followed by its payload as {@link PayloadChunk}s
 * (slices of the received buffers: the payload is never copied here), or into a
 * {@link DecodeFailure} for bad input. A state machine with explicit limits: a frame with an
 * unknown type, another version or malformed metadata is skipped and the connection goes on; bad
 * magic or an oversize length makes the failure fatal and everything after it is discarded.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
  private enum State { HEADER, META, PAYLOAD, SKIP, DEAD }

  private final int maxMetaLength;
  private final long maxPayloadLength;

  private State state = State.HEADER;
  private MessageType type;
  private int flags;
  private long requestId;
  private int metaLength;
  private long payloadLength;
  private long remaining;

  public FrameDecoder(int maxMetaLength, long maxPayloadLength) {
    this.maxMetaLength = maxMetaLength;
    this.maxPayloadLength = maxPayloadLength;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    while (true) {
      switch (state) {
        case HEADER -> {
          if (in.readableBytes() >= 4 && in.getInt(in.readerIndex()) != Frames.MAGIC) {
            die(out, 0, Status.BAD_FRAME, String.format("bad magic 0x%08x: not an SCache frame",
                in.getInt(in.readerIndex())), in);
            return;
          }
          requestId = 0;
          if (in.readableBytes() < Frames.HEADER_LENGTH || !readHeader(in, out)) {
            return;
          }
        }
        case META -> {
          if (in.readableBytes() < metaLength) {
            return;
          }
          readMeta(in.readSlice(metaLength), out);
        }
        case PAYLOAD -> {
          if (!in.isReadable()) {
            return;
          }
          int n = (int) Math.min(in.readableBytes(), remaining);
          remaining -= n;
          out.add(new PayloadChunk(in.readRetainedSlice(n), remaining == 0));
          if (remaining == 0) {
            state = State.HEADER;
          }
        }
        case SKIP -> {
          int n = (int) Math.min(in.readableBytes(), remaining);
          in.skipBytes(n);
          remaining -= n;
          if (remaining > 0) {
            return;
          }
          state = State.HEADER;
        }
        case DEAD -> {
          in.skipBytes(in.readableBytes());
          return;
        }
      }
    }
  }

  @Override
  protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
    decode(ctx, in, out);
    if (state != State.DEAD && (state != State.HEADER || in.isReadable())) {
      out.add(new DecodeFailure(requestId, Status.MALFORMED_MESSAGE, "connection closed in the middle of a frame",
          true));
      in.skipBytes(in.readableBytes());
      state = State.DEAD;
    }
  }

  /** Reads and checks a header; false when the rest of the input is to be discarded. */
  private boolean readHeader(ByteBuf in, List<Object> out) {
    int magic = in.readInt();
    if (magic != Frames.MAGIC) {
      return die(out, 0, Status.BAD_FRAME, String.format("bad magic 0x%08x: not an SCache frame", magic), in);
    }
    int version = in.readUnsignedByte();
    int typeId = in.readUnsignedByte();
    flags = in.readUnsignedShort();
    requestId = in.readLong();
    long meta = in.readUnsignedInt();
    payloadLength = in.readLong();
    if (meta > maxMetaLength) {
      return die(out, requestId, Status.FRAME_TOO_LARGE,
          "metadata length " + meta + " exceeds the limit of " + maxMetaLength, in);
    }
    if (payloadLength < 0 || payloadLength > maxPayloadLength) {
      return die(out, requestId, Status.FRAME_TOO_LARGE,
          "payload length " + payloadLength + " exceeds the limit of " + maxPayloadLength, in);
    }
    metaLength = (int) meta;
    Optional<MessageType> t = MessageType.fromId(typeId);
    if (version != Frames.VERSION) {
      skip(out, Status.UNSUPPORTED_VERSION, "protocol version " + version + " is not supported; this peer speaks "
          + Frames.VERSION);
    } else if (t.isEmpty()) {
      skip(out, Status.UNKNOWN_MESSAGE_TYPE, "unknown message type " + typeId);
    } else if (payloadLength > 0 && !t.get().carriesPayload()) {
      skip(out, Status.MALFORMED_MESSAGE, t.get() + " carries no payload but " + payloadLength + " bytes were sent");
    } else {
      type = t.get();
      state = State.META;
    }
    return true;
  }

  private void readMeta(ByteBuf meta, List<Object> out) {
    Optional<AuthTag> auth = Optional.empty();
    try {
      if ((flags & Frames.FLAG_AUTH) != 0) {
        WireReader r = new WireReader(meta);
        String principal = r.readString("principal");
        int proofLength = r.readUnsignedByte("proof length");
        if (meta.readableBytes() < proofLength) {
          throw new MalformedMessageException("truncated proof");
        }
        byte[] proof = new byte[proofLength];
        meta.readBytes(proof);
        auth = Optional.of(new AuthTag(principal, proof, ByteBufUtil.getBytes(meta)));
      }
      Message message = MessageCodec.decode(type, meta);
      out.add(new InboundFrame(requestId, message, auth, payloadLength));
      if (payloadLength > 0) {
        remaining = payloadLength;
        state = State.PAYLOAD;
      } else {
        state = State.HEADER;
      }
    } catch (MalformedMessageException | IllegalArgumentException e) {
      out.add(new DecodeFailure(requestId, Status.MALFORMED_MESSAGE, "malformed " + type + ": " + e.getMessage(),
          false));
      remaining = payloadLength;
      state = remaining > 0 ? State.SKIP : State.HEADER;
    }
  }

  private void skip(List<Object> out, Status status, String message) {
    out.add(new DecodeFailure(requestId, status, message, false));
    remaining = metaLength + payloadLength;
    state = State.SKIP;
  }

  private boolean die(List<Object> out, long id, Status status, String message, ByteBuf in) {
    out.add(new DecodeFailure(id, status, message, true));
    in.skipBytes(in.readableBytes());
    state = State.DEAD;
    return false;
  }
}
