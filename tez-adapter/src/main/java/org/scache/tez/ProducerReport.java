package org.scache.tez;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * What a producer task tells its consumers (in its data movement event) and the consumer vertex's
 * manager (in a vertex manager event): the shuffle, its map id and attempt, how many partitions it wrote,
 * and the SCache worker and container it ran in; and, when SCache did not take its output, where Tez's shuffle
 * service serves it instead ({@code onTez}, null when the output is in SCache).
 *
 * <pre>
 * int  magic 'SCTZ', byte version (1, or 2 with what follows the container),
 * int  shuffle, int map, int attempt, int partitions, UTF worker address, UTF container id,
 * bool written as Tez's shuffle [UTF host, int port, UTF path component]
 * </pre>
 */
record ProducerReport(int shuffleId, int mapId, int attempt, int partitions, String worker, String container,
    TezShuffleOutput onTez) {
  static final int MAGIC = 0x5343545A;
  static final byte VERSION = 2;

  /** A report of an output SCache holds. */
  ProducerReport(int shuffleId, int mapId, int attempt, int partitions, String worker, String container) {
    this(shuffleId, mapId, attempt, partitions, worker, container, null);
  }

  /** The same producer, its output written as Tez's shuffle and served from {@code output}. */
  ProducerReport writtenAsTez(TezShuffleOutput output) {
    return new ProducerReport(shuffleId, mapId, attempt, partitions, worker, container, output);
  }

  ByteBuffer encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeByte(VERSION);
      out.writeInt(shuffleId);
      out.writeInt(mapId);
      out.writeInt(attempt);
      out.writeInt(partitions);
      out.writeUTF(worker);
      out.writeUTF(container);
      out.writeBoolean(onTez != null);
      if (onTez != null) {
        out.writeUTF(onTez.host());
        out.writeInt(onTez.port());
        out.writeUTF(onTez.pathComponent());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ByteBuffer.wrap(bytes.toByteArray());
  }

  /** The report in {@code payload}, or empty when the payload is not one (for example Tez's own statistics). */
  static Optional<ProducerReport> decode(ByteBuffer payload) {
    if (payload == null || payload.remaining() < 5) {
      return Optional.empty();
    }
    ByteBuffer b = payload.duplicate();
    if (b.getInt() != MAGIC) {
      return Optional.empty();
    }
    byte[] bytes = new byte[payload.remaining()];
    payload.duplicate().get(bytes);
    try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes))) {
      in.readInt();
      byte version = in.readByte();
      if (version != 1 && version != VERSION) {
        throw new IllegalArgumentException("SCache producer report of unknown version " + version);
      }
      int shuffle = in.readInt();
      int map = in.readInt();
      int attempt = in.readInt();
      int partitions = in.readInt();
      String worker = in.readUTF();
      String container = in.readUTF();
      TezShuffleOutput onTez = version >= 2 && in.readBoolean()
          ? new TezShuffleOutput(in.readUTF(), in.readInt(), in.readUTF()) : null;
      return Optional.of(new ProducerReport(shuffle, map, attempt, partitions, worker, container, onTez));
    } catch (IOException e) {
      throw new IllegalArgumentException("malformed SCache producer report", e);
    }
  }

  /** Like {@link #decode}, for an event that must carry a report. */
  static ProducerReport require(ByteBuffer payload, String what) {
    return decode(payload).orElseThrow(() -> new IllegalArgumentException(what
        + " does not carry an SCache producer report; was the edge's output an SCache output?"));
  }
}
