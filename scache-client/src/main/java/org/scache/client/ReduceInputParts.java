package org.scache.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.scache.common.ScacheException;

/**
 * A reduce's input read in parts as its blocks land on this node's worker
 * ({@link ScacheClient#readReduceInputInParts}): each {@link #next} gives the blocks of maps not given
 * before, and asks at once for the part after it, which the worker answers as soon as another block
 * has landed, so that the reduce works on one part while the next arrives. A part without blocks
 * means the whole input has been given; so does a part that completes the maps the reader named, which
 * is then the last one asked for. Where the worker's shared memory cannot be used, the whole
 * input comes as one part. A reader {@linkplain ReduceInput#release releases} each part once it has
 * read its blocks, so the next parts reuse its buffers, and {@linkplain #close closes} the parts when
 * it stops early. Not for use by several threads at once.
 */
public final class ReduceInputParts implements AutoCloseable {
  /** A part as the worker answered it; {@code whole} when it is the whole input (read over the socket). */
  record Part(ReduceInput input, boolean whole) {}

  /** Asks for the part after the maps in {@code haveMaps}. */
  interface Request {
    CompletableFuture<Part> after(Set<Integer> haveMaps);
  }

  private final Request request;
  /** The maps whose blocks make the whole input, as the reader named them; empty: known only from the worker. */
  private final Set<Integer> expectedMaps;
  private final Set<Integer> have = new TreeSet<>();
  private CompletableFuture<Part> ahead;
  private boolean done;

  ReduceInputParts(Request request, Set<Integer> expectedMaps) {
    this.request = request;
    this.expectedMaps = Set.copyOf(expectedMaps);
  }

  /**
   * The blocks of the maps not given before, waiting for at least one (or for the worker's answer that
   * there are none left: then the part has no blocks, and so have all later ones).
   *
   * @throws ScacheException as {@link ScacheClient#getReduceInput} fails
   */
  public ReduceInput next() {
    if (done) {
      return new ReduceInput(0, 0, List.of());
    }
    CompletableFuture<Part> asked = ahead != null ? ahead : request.after(Set.copyOf(have));
    ahead = null;
    Part part;
    try {
      part = asked.join();
    } catch (RuntimeException e) {
      done = true;
      throw ScacheException.from(e);
    }
    List<ReduceInput.Block> fresh = new ArrayList<>(part.input().blocks().size());
    for (ReduceInput.Block b : part.input().blocks()) {
      if (have.add(b.blockId().mapId())) {
        fresh.add(b);
      }
    }
    if (part.whole() || part.input().blocks().isEmpty()
        || !expectedMaps.isEmpty() && have.containsAll(expectedMaps)) {
      done = true;
    } else {
      ahead = request.after(Set.copyOf(have));
    }
    return part.input().withBlocks(fresh);
  }

  /**
   * Stops reading: the part asked for ahead is released once it arrives, and {@link #next} gives no
   * more blocks. The reader releases the parts it was given itself.
   */
  @Override
  public void close() {
    done = true;
    if (ahead != null) {
      ahead.thenAccept(part -> part.input().release());
      ahead = null;
    }
  }
}
