package org.scache.common.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Optional;
import org.scache.common.auth.Credentials;
import org.scache.common.protocol.ChannelBinding;
import org.scache.common.protocol.FrameDecoder;
import org.scache.common.protocol.FrameEncoder;
import org.scache.common.protocol.Frames;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.OutboundFrame;
import org.scache.common.protocol.ServerHello;

/**
 * A peer of a server over a plain socket bound to a source address of the test's choosing: it reads
 * the greeting, sends (signed) frames when told and stays silent otherwise, and sees when the server
 * closes it. What an idle or hostile client does, frame by frame.
 */
public final class RawPeer implements AutoCloseable {
  private final Socket socket;
  private final DataInputStream in;
  private final ChannelBinding binding = ChannelBinding.connecting(false);

  private RawPeer(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new DataInputStream(socket.getInputStream());
  }

  /** Connects from {@code source} (any 127.x address on Linux) to 127.0.0.1:{@code port}. */
  public static RawPeer connect(String source, int port) throws IOException {
    Socket s = new Socket();
    try {
      s.bind(new InetSocketAddress(source, 0));
      s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      s.setSoTimeout(10_000);
      return new RawPeer(s);
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }

  /** Reads the first frame; when it is the server's greeting, learns the connection's nonce. */
  public Optional<Message> greeting() throws IOException {
    Optional<Message> m = read();
    if (m.isPresent() && m.get() instanceof ServerHello hello) {
      binding.learn(hello.nonce());
    }
    return m;
  }

  /** Sends {@code m}, signed with {@code credentials} when present, bound to this connection. */
  public void send(long requestId, Message m, Optional<Credentials> credentials) throws IOException {
    EmbeddedChannel ch = new EmbeddedChannel(new FrameEncoder(FrameCodecHarness.MAX_META, binding));
    ch.writeOutbound(new OutboundFrame(requestId, m, credentials, Unpooled.EMPTY_BUFFER));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
      out.writeBytes(ByteBufUtil.getBytes(b));
      b.release();
    }
    ch.finish();
    socket.getOutputStream().write(out.toByteArray());
  }

  /** The next frame's message (its payload skipped); empty once the server has closed the connection. */
  public Optional<Message> read() throws IOException {
    byte[] header = new byte[Frames.HEADER_LENGTH];
    try {
      in.readFully(header);
    } catch (EOFException | SocketException e) {
      return Optional.empty();
    }
    ByteBuf h = Unpooled.wrappedBuffer(header);
    int meta = h.getInt(16);
    long payload = h.getLong(20);
    byte[] rest = new byte[Math.toIntExact(meta + payload)];
    in.readFully(rest);
    EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(FrameCodecHarness.MAX_META,
        FrameCodecHarness.MAX_PAYLOAD));
    ch.writeInbound(Unpooled.wrappedBuffer(header, rest));
    Object first = ch.readInbound();
    for (Object o; (o = ch.readInbound()) != null; ) {
      ReferenceCountUtil.release(o);
    }
    ch.finish();
    return Optional.of(((InboundFrame) first).message());
  }

  /** Whether the server closes the connection within {@code within}, reading past what it sends first. */
  public boolean closedByServer(Duration within) throws IOException {
    socket.setSoTimeout((int) within.toMillis());
    try {
      while (read().isPresent()) {
        // an error answer may come before the close
      }
      return true;
    } catch (java.net.SocketTimeoutException e) {
      return false;
    } finally {
      socket.setSoTimeout(10_000);
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
