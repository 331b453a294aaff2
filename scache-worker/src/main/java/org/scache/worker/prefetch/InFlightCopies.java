package org.scache.worker.prefetch;

import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import org.scache.common.BlockId;

/** Blocks being copied to this worker, which a read should wait for rather than fetch a second time. */
public interface InFlightCopies {
  /** No copy in flight: a read fetches what it does not find here. */
  InFlightCopies NONE = ids -> CompletableFuture.completedFuture(null);

  /**
   * Completes (never exceptionally) once none of {@code ids} is on its way here any more: each has
   * landed or its copy was given up.
   */
  CompletableFuture<Void> whenSettled(Collection<BlockId> ids);

  /**
   * Completes (never exceptionally) once one of {@code ids} is no longer on its way here, or at once
   * when none of them is; the others still go first, as for {@link #whenSettled}. By default, once all
   * of them have settled.
   */
  default CompletableFuture<Void> whenAnySettled(Collection<BlockId> ids) {
    return whenSettled(ids);
  }

  /**
   * A read here fetched {@code ids} from their holders: a copy of them is of no use any more, neither
   * queued nor announced later (a master's notice of a finished map can arrive after its reduce read it).
   */
  default void readFromHolders(Collection<BlockId> ids) {}
}
