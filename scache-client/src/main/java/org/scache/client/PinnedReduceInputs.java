package org.scache.client;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.scache.common.ScacheException;
import org.scache.common.network.Reply;
import org.scache.common.protocol.PinnedReduceInput;
import org.scache.common.protocol.ReducePart;
import org.scache.common.protocol.Status;

/**
 * Reduce inputs as the worker on this host answers them through its shared memory: the blocks it
 * holds there pinned for this client, the others in the answer's payload. A pinned block is read in
 * place, through a read-only view of the mapping that keeps it pinned until the reader releases it,
 * or, for a whole input read into one array, copied out and unpinned at once; see
 * {@link ReduceInputBuffers}.
 */
final class PinnedReduceInputs {
  private final MappedSegments mapped;

  PinnedReduceInputs(MappedSegments mapped) {
    this.mapped = mapped;
  }

  /** The bytes {@link #read} copies of the input answered in {@code r}: those of the blocks not read in place. */
  static long bytesToCopy(Reply r, ReduceInputBuffers into) {
    boolean readInPlace = into.readsPinnedInPlace();
    long bytes = 0;
    for (ReducePart p : r.as(PinnedReduceInput.class).parts()) {
      if (isCopied(p, readInPlace)) {
        bytes += p.size();
      }
    }
    return bytes;
  }

  /** Whether {@link #read} copies part {@code p}: it is not pinned, or pinned blocks are not read in place. */
  private static boolean isCopied(ReducePart p, boolean readInPlace) {
    return !readInPlace || p.pin().isEmpty();
  }

  /**
   * The input the worker answered with in {@code r} (a {@link PinnedReduceInput} and its
   * payload, which this takes): blocks pinned in shared memory read in place or copied out of the
   * mapping as {@code into} says, the others copied out of the payload; pins not kept are given back
   * at once.
   */
  ReduceInput read(WorkerSession s, Reply r, ReduceInputBuffers into) {
    List<Long> pins = new ArrayList<>();
    // blocks read in place, by their view: each pin is given back as its view is released
    Map<ByteBuffer, Long> inPlace = new IdentityHashMap<>();
    List<ByteBuffer> taken = List.of();
    boolean copied = false;
    try {
      PinnedReduceInput m = r.as(PinnedReduceInput.class);
      boolean readInPlace = into.readsPinnedInPlace();
      int[] sizes = new int[m.parts().size()];
      int copies = 0;
      long total = 0;
      for (ReducePart p : m.parts()) {
        p.pin().ifPresent(pin -> pins.add(pin.pinId()));
        total += p.size();
        if (isCopied(p, readInPlace)) {
          sizes[copies++] = (int) Math.min(p.size(), Integer.MAX_VALUE);
        }
      }
      if (m.payloadBytes() != r.payloadBytes() || total > Integer.MAX_VALUE - 8) {
        throw new ScacheException(Status.MALFORMED_MESSAGE, "the worker sent a reduce input of " + total
            + " bytes, " + m.payloadBytes() + " of them in a payload of " + r.payloadBytes());
      }
      taken = into.take(Arrays.copyOf(sizes, copies));
      List<ReduceInput.Block> blocks = new ArrayList<>(m.parts().size());
      Iterator<ByteBuffer> buffers = taken.iterator();
      for (ReducePart p : m.parts()) {
        ByteBuffer data;
        if (readInPlace && p.pin().isPresent()) {
          data = mapped.view(s.segments, p.pin().get());
          inPlace.put(data, p.pin().get().pinId());
        } else if (p.pin().isPresent()) {
          data = buffers.next();
          mapped.copyOut(s.segments, p.pin().get(), data);
        } else {
          data = buffers.next();
          r.payload().readBytes(data.duplicate());
        }
        blocks.add(new ReduceInput.Block(p.blockId(), data));
      }
      if (!pins.isEmpty() && !s.connection.isActive()) {
        // the worker drops a connection's pins when it closes: the copy may have raced with reuse
        throw new ScacheException(Status.CONNECTION_FAILED, "the connection closed while the input was copied");
      }
      List<ByteBuffer> all = new ArrayList<>(taken);
      all.addAll(inPlace.keySet());
      pins.removeAll(Set.copyOf(inPlace.values())); // by value: the identity map's values compare by reference
      copied = true;
      return new ReduceInput(m.numMaps(), m.finishedMaps(), blocks, all, b -> giveBack(s, into, inPlace, b));
    } finally {
      if (!copied) {
        taken.forEach(into::giveBack);
        inPlace.keySet().forEach(v -> mapped.viewReleased());
      }
      r.release();
      s.unpin(pins);
    }
  }

  /**
   * Takes back a block's buffer: a copy goes back to {@code into}; a block read in place is unpinned,
   * and if the connection closed meanwhile (the worker then drops its pins and may reuse the memory),
   * what was read of it cannot be trusted, and the reader is told so.
   */
  private void giveBack(WorkerSession s, ReduceInputBuffers into, Map<ByteBuffer, Long> inPlace, ByteBuffer b) {
    Long pin;
    synchronized (inPlace) {
      pin = inPlace.remove(b);
    }
    if (pin == null) {
      into.giveBack(b);
      return;
    }
    mapped.viewReleased();
    boolean intact = s.connection.isActive();
    s.unpin(List.of(pin));
    if (!intact) {
      throw new ScacheException(Status.CONNECTION_FAILED, "the connection to the worker closed while a block was "
          + "read in its shared memory: the bytes read may have changed");
    }
  }
}
