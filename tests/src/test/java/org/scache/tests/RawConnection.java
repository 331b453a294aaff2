package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.util.Optional;
import org.scache.common.auth.Credentials;
import org.scache.common.protocol.ChannelBinding;
import org.scache.common.protocol.FrameEncoder;
import org.scache.common.protocol.Frames;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.MessageType;
import org.scache.common.protocol.OutboundFrame;
import org.scache.common.protocol.Status;

/**
 * A socket to a daemon that speaks frames byte by byte, as an attacker or a client written from
 * {@code docs/protocol.md} would: it reads the daemon's greeting, builds signed frames with the
 * project's encoder bound to this connection, and sends any bytes it is given.
 */
final class RawConnection implements AutoCloseable {
  /** One answer as read: its request id, type, and for an {@code ERROR} its status and message. */
  record Answer(long requestId, int type, Status status, String message) {}

  private final Socket socket;
  private final DataInputStream in;
  private final DataOutputStream out;
  private final byte[] nonce;
  private final EmbeddedChannel encoder;
  private byte[] lastMeta = new byte[0];

  private RawConnection(Socket socket, boolean digestsPayloads) throws IOException {
    this.socket = socket;
    this.in = new DataInputStream(socket.getInputStream());
    this.out = new DataOutputStream(socket.getOutputStream());
    Answer hello = readRaw();
    assertEquals(MessageType.SERVER_HELLO.id(), hello.type(), "a daemon opens every connection with its greeting");
    this.nonce = lastMeta.length > 4 ? java.util.Arrays.copyOfRange(lastMeta, 4, lastMeta.length) : new byte[0];
    ChannelBinding binding = ChannelBinding.connecting(digestsPayloads);
    binding.learn(nonce);
    this.encoder = new EmbeddedChannel(new FrameEncoder(1 << 20, binding));
  }

  /** A connection whose signed frames carry their payload's digest. */
  static RawConnection open(int port) throws IOException {
    return open(port, true);
  }

  static RawConnection open(int port, boolean digestsPayloads) throws IOException {
    Socket s = new Socket("127.0.0.1", port);
    s.setSoTimeout(10_000);
    return new RawConnection(s, digestsPayloads);
  }

  byte[] nonce() {
    return nonce.clone();
  }

  /** The bytes of {@code message}, signed with {@code credentials} for this connection, with {@code payload}. */
  byte[] signed(long requestId, Message message, Credentials credentials, byte[] payload) {
    encoder.writeOutbound(new OutboundFrame(requestId, message, Optional.of(credentials),
        Unpooled.wrappedBuffer(payload)));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (ByteBuf b; (b = encoder.readOutbound()) != null; ) {
      bytes.writeBytes(ByteBufUtil.getBytes(b));
      b.release();
    }
    return bytes.toByteArray();
  }

  void send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Reads the next answer, skipping its payload. */
  Answer read() throws IOException {
    return readRaw();
  }

  private Answer readRaw() throws IOException {
    assertEquals(Frames.MAGIC, in.readInt());
    in.readUnsignedByte();
    int type = in.readUnsignedByte();
    in.readUnsignedShort();
    long requestId = in.readLong();
    int meta = in.readInt();
    long payload = in.readLong();
    lastMeta = new byte[meta];
    in.readFully(lastMeta);
    in.skipNBytes(payload);
    if (type != MessageType.ERROR.id()) {
      return new Answer(requestId, type, Status.OK, "");
    }
    var m = Unpooled.wrappedBuffer(lastMeta);
    Status status = Status.fromCode(m.readUnsignedShort()).orElseThrow();
    String text = m.readCharSequence(m.readUnsignedShort(), java.nio.charset.StandardCharsets.UTF_8).toString();
    return new Answer(requestId, type, status, text);
  }

  @Override
  public void close() throws IOException {
    encoder.finishAndReleaseAll();
    socket.close();
  }
}
