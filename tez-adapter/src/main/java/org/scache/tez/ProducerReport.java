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
 * manager (in a vertex manager event) when its output is in SCache: the shuffle, its map id and
 * attempt, how many partitions it wrote, and the SCache worker and container it ran in.
 *
 * <pre>
 * int  magic 'SCTZ', byte version 1,
 * int  shuffle, int map, int attempt, int partitions, UTF worker address, UTF container id
 * </pre>
 */
record ProducerReport(int shuffleId, int mapId, int attempt, int partitions, String worker, String container) {
  static final int MAGIC = 0x5343545A;
  static final byte VERSION = 1;

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
      if (version != VERSION) {
        throw new IllegalArgumentException("SCache producer report of unknown version " + version);
      }
      return Optional.of(new ProducerReport(in.readInt(), in.readInt(), in.readInt(), in.readInt(), in.readUTF(),
          in.readUTF()));
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
