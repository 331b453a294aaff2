package org.scache.common.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.scache.common.ScacheException;
import org.scache.common.auth.Credentials;
import org.scache.common.auth.PayloadDigest;
import org.scache.common.protocol.ChannelBinding;
import org.scache.common.protocol.DecodeFailure;
import org.scache.common.protocol.ErrorAnswer;
import org.scache.common.protocol.FrameHead;
import org.scache.common.protocol.FrameHeader;
import org.scache.common.protocol.Frames;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.MalformedMessageException;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.ServerHello;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.WireBuffer;

/**
 * A client connection without event loops: a call writes its frame and reads its answer in the
 * calling thread, and calls on one connection take turns. It starts no thread and loads a fraction
 * of the classes an event-loop connection needs, which is what a short-lived task JVM that makes a
 * few calls to the worker on its host wants: calls and answers without payload (all of a map task's)
 * do not load or initialise Netty's buffers. An answer's payload is read straight into one array.
 * A timeout or a stream that cannot be followed closes the connection, so the next call opens a
 * new one and never reads a stale answer.
 */
public final class BlockingConnection implements ClientConnection {
  private static final AtomicLong REQUEST_IDS = new AtomicLong();
  private static final int BUFFER_BYTES = 64 * 1024;

  private final Socket socket;
  private final String peer;
  private final TransportSettings settings;
  private final DataInputStream in;
  private final OutputStream out;
  private final ReentrantLock turn = new ReentrantLock();
  private final ChannelBinding binding;
  // reused by every call, under the turn lock
  private final WireBuffer head = new WireBuffer(256);
  private final byte[] answerHead = new byte[Frames.HEADER_LENGTH];
  private int soTimeoutMillis = -1;
  private volatile boolean closed;

  private BlockingConnection(Socket socket, String peer, TransportSettings settings) throws IOException {
    this.socket = socket;
    this.peer = peer;
    this.settings = settings;
    this.binding = ChannelBinding.connecting(settings.payloadDigest());
    this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), BUFFER_BYTES));
    this.out = new BufferedOutputStream(socket.getOutputStream(), BUFFER_BYTES);
  }

  /** Connects to {@code host:port} and reads the peer's greeting, each within the settings' connect timeout. */
  public static BlockingConnection open(String host, int port, TransportSettings settings) {
    String peer = host + ":" + port;
    Socket socket = new Socket();
    int connectMillis = (int) Math.max(1, settings.connectTimeout().toMillis());
    try {
      socket.setTcpNoDelay(true);
      socket.setKeepAlive(true);
      socket.connect(new InetSocketAddress(host, port), connectMillis);
      BlockingConnection c = new BlockingConnection(socket, peer, settings);
      c.readGreeting(connectMillis);
      return c;
    } catch (SocketTimeoutException e) {
      closeQuietly(socket);
      throw new ScacheException(Status.CONNECTION_FAILED, peer + " sent no greeting within " + connectMillis
          + " ms of connecting: not an SCache daemon of protocol version " + Frames.VERSION + "?", e);
    } catch (IOException e) {
      closeQuietly(socket);
      throw new ScacheException(Status.CONNECTION_FAILED, "cannot connect to " + peer + ": " + e.getMessage(), e);
    } catch (ScacheException e) {
      closeQuietly(socket);
      throw e;
    }
  }

  /** Reads the {@link ServerHello} every accepting peer sends first, and keeps its nonce. */
  private void readGreeting(int timeoutMillis) throws IOException {
    socket.setSoTimeout(timeoutMillis);
    soTimeoutMillis = timeoutMillis;
    in.readFully(answerHead);
    FrameHeader header = FrameHeader.read(ByteBuffer.wrap(answerHead));
    Optional<DecodeFailure> problem = header.problem(settings.maxMetaLength(), 0);
    if (problem.isPresent()) {
      throw new ScacheException(problem.get().status(), "bad greeting from " + peer + ": " + problem.get().message());
    }
    byte[] meta = new byte[(int) header.metaLength()];
    in.readFully(meta);
    try {
      Message first = header.decode(ByteBuffer.wrap(meta)).message();
      if (first instanceof ErrorAnswer err) {
        throw new ScacheException(err.status(), peer + " refused the connection: " + err.message());
      }
      if (!(first instanceof ServerHello hello)) {
        throw new ScacheException(Status.BAD_FRAME, peer + " opened with " + header.type() + ", not SERVER_HELLO");
      }
      binding.learn(hello.nonce());
    } catch (MalformedMessageException e) {
      throw new ScacheException(Status.MALFORMED_MESSAGE, "malformed greeting from " + peer + ": " + e.getMessage());
    }
  }

  @Override
  public String peer() {
    return peer;
  }

  @Override
  public boolean isActive() {
    return !closed;
  }

  /** Sends the request and reads its answer before returning; the future is complete when returned. */
  @Override
  public CompletableFuture<Reply> call(Message message, Optional<Credentials> credentials, ByteBuf payload,
      Duration timeout) {
    return callWith(message, credentials, payload, timeout);
  }

  /** {@inheritDoc} Sends no payload, so Netty's buffers are not touched. */
  @Override
  public CompletableFuture<Reply> call(Message message, Optional<Credentials> credentials, Duration timeout) {
    return callWith(message, credentials, null, timeout);
  }

  private CompletableFuture<Reply> callWith(Message message, Optional<Credentials> credentials, ByteBuf payload,
      Duration timeout) {
    try {
      return CompletableFuture.completedFuture(exchange(message, credentials, payload, timeout));
    } catch (ScacheException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** One request and its answer; {@code payload} is null for a request without one. */
  private Reply exchange(Message message, Optional<Credentials> credentials, ByteBuf payload, Duration timeout) {
    turn.lock();
    try {
      if (closed) {
        throw new ScacheException(Status.CONNECTION_FAILED, "connection to " + peer + " is closed");
      }
      long id = REQUEST_IDS.incrementAndGet();
      send(id, message, credentials, payload);
      int timeoutMillis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
      if (timeoutMillis != soTimeoutMillis) {
        socket.setSoTimeout(timeoutMillis);
        soTimeoutMillis = timeoutMillis;
      }
      return answerTo(id, message);
    } catch (SocketTimeoutException e) {
      close();
      throw new ScacheException(Status.TIMEOUT, message.type() + " to " + peer + " got no answer within "
          + timeout.toMillis() + " ms");
    } catch (IOException e) {
      close();
      throw new ScacheException(Status.CONNECTION_FAILED, "connection to " + peer + " failed: " + e, e);
    } finally {
      if (payload != null) {
        payload.release();
      }
      turn.unlock();
    }
  }

  private void send(long id, Message message, Optional<Credentials> credentials, ByteBuf payload)
      throws IOException {
    head.clear();
    try {
      FrameHead.write(id, message, credentials, payload == null ? 0 : payload.readableBytes(),
          () -> PayloadDigest.of(payload), settings.maxMetaLength(), binding, head);
    } catch (RuntimeException e) {
      throw new ScacheException(Status.CONNECTION_FAILED, "cannot send " + message.type() + " to " + peer + ": "
          + e.getMessage(), e);
    }
    head.writeTo(out);
    if (payload != null) {
      payload.getBytes(payload.readerIndex(), out, payload.readableBytes());
    }
    out.flush();
  }

  /** Reads frames until the answer to request {@code id}; answers to no pending call are skipped. */
  private Reply answerTo(long id, Message request) throws IOException {
    while (true) {
      in.readFully(answerHead);
      FrameHeader header = FrameHeader.read(ByteBuffer.wrap(answerHead));
      Optional<DecodeFailure> problem = header.problem(settings.maxMetaLength(), settings.maxPayloadLength());
      if (problem.isPresent()) {
        DecodeFailure failure = problem.get();
        if (failure.fatal()) {
          close();
          throw new ScacheException(failure.status(), "bad answer from " + peer + ": " + failure.message());
        }
        skip(header.metaLength() + header.payloadLength());
        if (header.requestId() == id) {
          throw new ScacheException(failure.status(), failure.message());
        }
        continue;
      }
      if (header.payloadLength() > Integer.MAX_VALUE - 8) {
        close();
        throw new ScacheException(Status.FRAME_TOO_LARGE, "an answer of " + header.payloadLength() + " bytes from "
            + peer + " does not fit one array, which the blocking transport reads an answer into");
      }
      byte[] meta = new byte[(int) header.metaLength()];
      in.readFully(meta);
      InboundFrame frame;
      try {
        frame = header.decode(ByteBuffer.wrap(meta));
      } catch (MalformedMessageException e) {
        skip(header.payloadLength());
        if (header.requestId() == id) {
          throw new ScacheException(Status.MALFORMED_MESSAGE, "malformed answer to " + request.type() + " from "
              + peer + ": " + e.getMessage());
        }
        continue;
      }
      byte[] data = new byte[(int) header.payloadLength()];
      in.readFully(data);
      if (frame.requestId() != id) {
        continue;
      }
      if (frame.message() instanceof ErrorAnswer err) {
        throw new ScacheException(err.status(), err.message());
      }
      return data.length == 0 ? Reply.of(frame.message()) : new Reply(frame.message(), Unpooled.wrappedBuffer(data));
    }
  }

  private void skip(long bytes) throws IOException {
    long left = bytes;
    while (left > 0) {
      int n = in.skipBytes((int) Math.min(left, Integer.MAX_VALUE));
      if (n <= 0) {
        in.readByte();
        n = 1;
      }
      left -= n;
    }
  }

  @Override
  public void close() {
    closed = true;
    closeQuietly(socket);
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // nothing left to release
    }
  }
}
