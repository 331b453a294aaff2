package org.scache.common.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import java.util.Optional;

/**
 * Turns bytes into {@link InboundFrame}s, each followed by its payload as {@link PayloadChunk}s
 * (slices of the received buffers: the payload is never copied here), or into a
 * {@link DecodeFailure} for bad input. A state machine with explicit limits: a frame with an
 * unknown type, another version or malformed metadata is skipped and the connection goes on; bad
 * magic or an oversize length makes the failure fatal and everything after it is discarded. On the
 * accepting side a signed request whose sequence number is not above every one admitted on the
 * connection is refused as a replay ({@link ChannelBinding}); the sequence is admitted only once the
 * request's proof has verified, after this decoder.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
  private enum State { HEADER, META, PAYLOAD, SKIP, DEAD }

  private final int maxMetaLength;
  private final long maxPayloadLength;
  private final ChannelBinding binding;

  private State state = State.HEADER;
  /** The frame being read; null between frames. */
  private FrameHeader header;
  private long remaining;

  /** A decoder for the connecting side, which receives answers only. */
  public FrameDecoder(int maxMetaLength, long maxPayloadLength) {
    this(maxMetaLength, maxPayloadLength, null);
  }

  /** A decoder for the accepting side of a connection bound by {@code binding}. */
  public FrameDecoder(int maxMetaLength, long maxPayloadLength, ChannelBinding binding) {
    this.maxMetaLength = maxMetaLength;
    this.maxPayloadLength = maxPayloadLength;
    this.binding = binding;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    while (true) {
      switch (state) {
        case HEADER -> {
          if (in.readableBytes() >= 4 && in.getInt(in.readerIndex()) != Frames.MAGIC) {
            die(out, FrameHeader.badMagic(in.getInt(in.readerIndex())), in);
            return;
          }
          header = null;
          if (in.readableBytes() < Frames.HEADER_LENGTH || !readHeader(in, out)) {
            return;
          }
        }
        case META -> {
          if (in.readableBytes() < header.metaLength()) {
            return;
          }
          readMeta(in.readSlice((int) header.metaLength()), out);
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
      out.add(new DecodeFailure(header == null ? 0 : header.requestId(), Status.MALFORMED_MESSAGE,
          "connection closed in the middle of a frame", true));
      in.skipBytes(in.readableBytes());
      state = State.DEAD;
    }
  }

  /** Reads and checks a header; false when the rest of the input is to be discarded. */
  private boolean readHeader(ByteBuf in, List<Object> out) {
    header = FrameHeader.read(in);
    Optional<DecodeFailure> problem = header.problem(maxMetaLength, maxPayloadLength);
    if (problem.isPresent() && problem.get().fatal()) {
      return die(out, problem.get(), in);
    }
    if (problem.isPresent()) {
      out.add(problem.get());
      remaining = header.metaLength() + header.payloadLength();
      state = State.SKIP;
    } else {
      state = State.META;
    }
    return true;
  }

  private void readMeta(ByteBuf meta, List<Object> out) {
    long payloadLength = header.payloadLength();
    try {
      InboundFrame frame = binding == null ? header.decode(meta) : header.decode(meta, binding.nonce());
      if (binding != null && frame.auth().isPresent() && !binding.isAbove(frame.auth().get().sequence())) {
        out.add(new DecodeFailure(header.requestId(), Status.AUTH_FAILED, header.type() + " is a replay: its sequence "
            + frame.auth().get().sequence() + " is not above those already taken on this connection", false));
        remaining = payloadLength;
        state = remaining > 0 ? State.SKIP : State.HEADER;
        return;
      }
      out.add(frame);
      if (payloadLength > 0) {
        remaining = payloadLength;
        state = State.PAYLOAD;
      } else {
        state = State.HEADER;
      }
    } catch (MalformedMessageException e) {
      out.add(new DecodeFailure(header.requestId(), Status.MALFORMED_MESSAGE, "malformed " + header.type() + ": "
          + e.getMessage(), false));
      remaining = payloadLength;
      state = remaining > 0 ? State.SKIP : State.HEADER;
    }
  }

  private boolean die(List<Object> out, DecodeFailure failure, ByteBuf in) {
    out.add(failure);
    in.skipBytes(in.readableBytes());
    state = State.DEAD;
    return false;
  }
}
