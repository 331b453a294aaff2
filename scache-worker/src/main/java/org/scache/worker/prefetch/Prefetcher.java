package org.scache.worker.prefetch;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.scache.common.BlockId;
import org.scache.common.Clock;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.BlockLocation;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ReduceMove;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.worker.cluster.BlockLocator;
import org.scache.worker.cluster.PeerFetches;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.store.BlockStore;
import org.scache.worker.store.CopyLanding;
import org.scache.worker.store.PlacementBook;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pulls the blocks of the reduces the master placed on this worker here before the reduces run
 * (paper Section IV-A): when the schedule arrives, the blocks of the maps finished so far; then the
 * blocks of each map that finishes later, as the master announces them. Copies land in this
 * worker's {@link BlockStore}, each reduce's blocks of one fetch as slices of one region
 * ({@link PrefetchLanding}), so reads find them locally. Fetches are batched per holder and bounded in number and
 * bandwidth; the next fetch
 * goes to the holder with the fewest fetches in flight, so a slow holder does not take every fetch
 * while a fast one has blocks queued and its link to here idles. Each
 * holder's queue is in the order the reduces will run: by their round in the placement, then by
 * reduce, so the first reduces' inputs are whole first and they can start while later inputs still
 * arrive. A read of a reduce whose blocks are still on their way waits for them, and they go first
 * ({@link #whenSettled}).
 */
public final class Prefetcher implements InFlightCopies {
  private static final Logger LOG = LoggerFactory.getLogger(Prefetcher.class);

  /**
   * A block to copy here, the worker it is copied from, and its place in the queue: {@code urgent}
   * when a read waits for it, then its reduce's round ({@link #UNKNOWN_ROUND} while the placement book has none).
   */
  private record Wanted(BlockId id, long size, WorkerInfo holder, boolean urgent, int round) {
    Wanted asUrgent() {
      return new Wanted(id, size, holder, true, round);
    }
  }

  private static final int UNKNOWN_ROUND = Integer.MAX_VALUE;
  /** Urgent first, then by round, then the reduces of a round one after another, each map by map. */
  private static final Comparator<Wanted> QUEUE_ORDER = Comparator.comparing((Wanted w) -> !w.urgent())
      .thenComparingInt(Wanted::round)
      .thenComparing(w -> w.id().appId())
      .thenComparingInt(w -> w.id().shuffleId())
      .thenComparingInt(w -> w.id().reduceId())
      .thenComparingInt(w -> w.id().mapId())
      .thenComparingInt(w -> w.id().attempt());

  /**
   * Limits of the prefetcher: fetches in flight at once ({@code maxInflight}) and from any one holder
   * ({@code maxInflightPerHolder}; the answers of one holder share one connection, so a second fetch
   * keeps it busy and more only wait behind it), bytes per fetch, bytes per second (0: unlimited).
   */
  public record Limits(boolean enabled, int maxInflight, int maxInflightPerHolder, long batchBytes,
      long bytesPerSecond) {}

  private final BlockStore store;
  private final BlockLocator master;
  private final PeerFetches holders;
  private final PlacementBook placements;
  private final WorkerInfo self;
  private final WorkerCounters counters;
  private final ScheduledExecutorService timer;
  private final Limits limits;
  private final Clock clock;
  private final PrefetchLanding landing;

  // guarded by this
  private final Map<String, TreeSet<Wanted>> queues = new LinkedHashMap<>();
  private final Set<BlockId> wanted = new HashSet<>();
  /** Reads waiting for wanted blocks: completed once the block is no longer wanted (landed or given up). */
  private final Map<BlockId, CompletableFuture<Void>> settled = new HashMap<>();
  private final Set<ShuffleKey> active = new HashSet<>();
  /** Shuffles whose placement reached this prefetcher. */
  private final Set<ShuffleKey> placed = new HashSet<>();
  /** Recently removed shuffles and applications: late announcements of them are ignored. */
  private final Set<Object> removed = java.util.Collections.newSetFromMap(new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Object, Boolean> eldest) {
      return size() > 10_000;
    }
  });
  /** Blocks a read here fetched from their holders, the latest {@link #READ_KEPT}: not copied here after it. */
  private final Set<BlockId> readFromHolders = java.util.Collections.newSetFromMap(new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<BlockId, Boolean> eldest) {
      return size() > READ_KEPT;
    }
  });
  private static final int READ_KEPT = 16_384;
  /** A reduce of a shuffle whose blocks are being located to be copied here. */
  private record Located(ShuffleKey shuffle, int reduceId) {}

  /** Reduces being located, each with a future completed once its blocks are queued; guarded by this. */
  private final Map<Located, CompletableFuture<Void>> locating = new HashMap<>();
  /**
   * Shuffles whose copies their application holds back, each with the reduces placed here that have blocks to copy
   * once it lets them go; guarded by this.
   */
  private final Map<ShuffleKey, Set<Integer>> held = new HashMap<>();
  /** Fetches in flight per holder's worker id (none: no entry); guarded by this. */
  private final Map<String, Integer> inflightByHolder = new HashMap<>();
  private long nextSendNanos;

  public Prefetcher(BlockStore store, CopyLanding copies, BlockLocator master, PeerFetches holders,
      PlacementBook placements, WorkerInfo self, WorkerCounters counters, ScheduledExecutorService timer, Limits limits,
      Clock clock) {
    this.store = store;
    this.master = master;
    this.holders = holders;
    this.placements = placements;
    this.self = self;
    this.counters = counters;
    this.timer = timer;
    this.limits = limits;
    this.clock = clock;
    this.landing = new PrefetchLanding(copies, counters);
  }

  /**
   * The master placed a shuffle, or moved some of its reduces: copy what already exists of the reduces placed or
   * moved here, and no more of those moved away. A shuffle whose placement came here before (now its reduces
   * move) has only its moved reduces located.
   */
  public void onScheduled(ShufflePlacement s, List<ReduceMove> moves) {
    if (!limits.enabled()) {
      return;
    }
    dropMovedAway(s.appId(), moves);
    ShuffleKey key = new ShuffleKey(s.appId(), s.shuffleId());
    Set<Located> toLocate = new java.util.LinkedHashSet<>();
    boolean placedBefore;
    synchronized (this) {
      placedBefore = !placed.add(key);
    }
    if (!placedBefore) {
      for (ReduceAssignment a : s.assignments()) {
        if (a.worker().workerId().equals(self.workerId())) {
          toLocate.add(new Located(key, a.reduceId()));
        }
      }
    }
    for (ReduceMove move : moves) {
      if (move.changesWorker() && move.to().workerId().equals(self.workerId())) {
        toLocate.add(new Located(new ShuffleKey(s.appId(), move.shuffleId()), move.reduceId()));
      }
    }
    toLocate.forEach(r -> locateAndQueue(r.shuffle(), r.reduceId()));
  }

  /**
   * Stops copying here the blocks of reduces moved to another worker: they are copied there (blocks in flight
   * still land, and are freed with the reduce's other inputs).
   */
  private void dropMovedAway(String appId, List<ReduceMove> moves) {
    List<CompletableFuture<Void>> done = new ArrayList<>();
    int dropped = 0;
    synchronized (this) {
      for (ReduceMove move : moves) {
        if (move.changesWorker() && move.from().workerId().equals(self.workerId())) {
          ShuffleKey key = new ShuffleKey(appId, move.shuffleId());
          dropped += purge(id -> id.reduceId() == move.reduceId() && id.shuffle().equals(key), done);
        }
      }
    }
    counters.prefetchDroppedBlocks.add(dropped);
    done.forEach(f -> f.complete(null));
  }

  /** A map finished after the schedule; its blocks of reduces placed here are copied. */
  public void onMapOutput(ShuffleKey key, WorkerInfo holder, List<BlockSize> blocks) {
    if (!limits.enabled()) {
      return;
    }
    List<BlockLocation> list = new ArrayList<>(blocks.size());
    blocks.forEach(b -> list.add(new BlockLocation(b.blockId(), b.size(), holder)));
    enqueue(key, list);
  }

  /** Blocks queued to be copied here and not yet asked for, and their bytes: how far prefetching lags. */
  public synchronized long[] backlog() {
    long blocks = 0;
    long bytes = 0;
    for (TreeSet<Wanted> q : queues.values()) {
      blocks += q.size();
      for (Wanted w : q) {
        bytes += w.size();
      }
    }
    return new long[] {blocks, bytes};
  }

  /** Fetches of blocks to copy here that are under way. */
  public synchronized int inflight() {
    int n = 0;
    for (int byHolder : inflightByHolder.values()) {
      n += byHolder;
    }
    return n;
  }

  /** Stops copying blocks of the shuffle; returns once no copy of it can land any more. */
  public void forgetShuffle(ShuffleKey key) {
    List<CompletableFuture<Void>> done = new ArrayList<>();
    synchronized (this) {
      placed.remove(key);
      held.remove(key);
      stopCopying(key, done);
    }
    done.forEach(f -> f.complete(null));
    landing.awaitLandingInProgress();
  }

  /**
   * The application reads the shuffle map by map where its maps ran, not by reduce here: its queued blocks are
   * dropped (reads waiting for them fetch them from their holders), copies under way are not kept, and its later
   * announcements are ignored. Copies that landed before stay until the shuffle is removed.
   */
  public void readInPlace(ShuffleKey key) {
    List<CompletableFuture<Void>> done = new ArrayList<>();
    int dropped;
    synchronized (this) {
      held.remove(key);
      dropped = stopCopying(key, done);
    }
    counters.prefetchDroppedBlocks.add(dropped);
    done.forEach(f -> f.complete(null));
    LOG.info("{} is read where its maps ran: {} queued blocks not copied here", key, dropped);
  }

  /**
   * The application holds back ({@code hold}) the copies of the shuffle's blocks here while it may still read the
   * shuffle where its maps ran, or lets them go. Held, its queued blocks leave the queue (reads waiting for them fetch
   * them from their holders), copies under way still land, and the reduces placed here that have blocks to copy are
   * remembered; let go, those reduces are located and their blocks copied, as when a placement arrives.
   */
  public void holdCopies(ShuffleKey key, boolean hold) {
    if (!limits.enabled()) {
      return;
    }
    List<CompletableFuture<Void>> done = new ArrayList<>();
    Set<Integer> reduces;
    int dropped = 0;
    synchronized (this) {
      if (removed.contains(key) || removed.contains(key.appId())) {
        return;
      }
      if (hold) {
        if (held.containsKey(key)) {
          return;
        }
        Set<Integer> toCopy = new TreeSet<>();
        held.put(key, toCopy);
        dropped = purge(id -> {
          if (!id.shuffle().equals(key)) {
            return false;
          }
          toCopy.add(id.reduceId());
          return true;
        }, done);
        reduces = toCopy;
      } else {
        reduces = held.remove(key);
        if (reduces == null) {
          return;
        }
      }
    }
    done.forEach(f -> f.complete(null));
    if (hold) {
      LOG.info("{}: copies here held back, {} queued blocks of {} reduces wait", key, dropped, reduces.size());
    } else {
      LOG.info("{}: copies here let go, {} reduces to locate", key, reduces.size());
      reduces.forEach(r -> locateAndQueue(key, r));
    }
  }

  /** Stops copying blocks of the application. */
  public void forgetApplication(String appId) {
    List<CompletableFuture<Void>> done = new ArrayList<>();
    synchronized (this) {
      active.removeIf(k -> k.appId().equals(appId));
      held.keySet().removeIf(k -> k.appId().equals(appId));
      placed.removeIf(k -> k.appId().equals(appId));
      removed.add(appId);
      purge(id -> id.appId().equals(appId), done);
    }
    done.forEach(f -> f.complete(null));
    landing.awaitLandingInProgress();
  }

  /**
   * Copies no more of the shuffle here and ignores its later announcements: its queued blocks are dropped, the waits
   * for them added to {@code done}; how many were dropped. Guarded by this.
   */
  private int stopCopying(ShuffleKey key, List<CompletableFuture<Void>> done) {
    active.remove(key);
    removed.add(key);
    return purge(id -> id.shuffle().equals(key), done);
  }

  /**
   * Drops the queued blocks {@code which} selects, adding the waits for them, to complete outside the lock, to
   * {@code done}; how many were dropped. Guarded by this.
   */
  private int purge(java.util.function.Predicate<BlockId> which, List<CompletableFuture<Void>> done) {
    int dropped = 0;
    for (TreeSet<Wanted> q : queues.values()) {
      Iterator<Wanted> it = q.iterator();
      while (it.hasNext()) {
        Wanted w = it.next();
        if (which.test(w.id())) {
          it.remove();
          unwant(w.id(), done);
          dropped++;
        }
      }
    }
    return dropped;
  }

  /** The block is no longer wanted; a read waiting for it is added to {@code done}. Guarded by this. */
  private void unwant(BlockId id, List<CompletableFuture<Void>> done) {
    wanted.remove(id);
    CompletableFuture<Void> waiting = settled.remove(id);
    if (waiting != null) {
      done.add(waiting);
    }
  }

  /**
   * Completes once none of {@code ids} is being copied here any more: each has landed, or its copy
   * failed or was dropped (the caller then reads it from its holder). A reduce that starts while its
   * input is still on its way waits for it rather than fetch the same bytes a second time, and its
   * queued blocks go to the front of their holders' queues.
   */
  @Override
  public CompletableFuture<Void> whenSettled(Collection<BlockId> ids) {
    CompletableFuture<Void> located = locating(ids);
    if (located != null) {
      return located.thenCompose(v -> whenSettled(ids));
    }
    return CompletableFuture.allOf(claim(ids).toArray(CompletableFuture[]::new));
  }

  /** As {@link #whenSettled}, but completes with the first of {@code ids} to settle. */
  @Override
  public CompletableFuture<Void> whenAnySettled(Collection<BlockId> ids) {
    CompletableFuture<Void> located = locating(ids);
    if (located != null) {
      return located.thenCompose(v -> whenAnySettled(ids));
    }
    List<CompletableFuture<Void>> waits = claim(ids);
    return waits.isEmpty() ? CompletableFuture.completedFuture(null)
        : CompletableFuture.anyOf(waits.toArray(CompletableFuture[]::new)).thenApply(v -> null);
  }

  /**
   * When the blocks of a reduce among {@code ids} are being located to be copied here (the reduce was just placed
   * or moved here), a future completed once they are queued; else null. A read that comes meanwhile waits for
   * them rather than fetch what the copies are about to bring.
   */
  private synchronized CompletableFuture<Void> locating(Collection<BlockId> ids) {
    if (locating.isEmpty()) {
      return null;
    }
    for (BlockId id : ids) {
      CompletableFuture<Void> pending = locating.get(new Located(id.shuffle(), id.reduceId()));
      if (pending != null) {
        return pending;
      }
    }
    return null;
  }

  @Override
  public void readFromHolders(Collection<BlockId> ids) {
    if (!limits.enabled()) {
      return;
    }
    List<CompletableFuture<Void>> done = new ArrayList<>();
    synchronized (this) {
      readFromHolders.addAll(ids);
      if (ids.stream().anyMatch(wanted::contains)) {
        Set<BlockId> read = new HashSet<>(ids);
        purge(read::contains, done);
      }
    }
    done.forEach(f -> f.complete(null));
  }

  /** Puts those of {@code ids} on their way here first in their queues; a future for each, when it settles. */
  private List<CompletableFuture<Void>> claim(Collection<BlockId> ids) {
    List<CompletableFuture<Void>> waits = new ArrayList<>();
    synchronized (this) {
      Set<BlockId> claimed = new HashSet<>();
      for (BlockId id : ids) {
        if (wanted.contains(id)) {
          waits.add(settled.computeIfAbsent(id, k -> new CompletableFuture<>()));
          claimed.add(id);
        }
      }
      if (!claimed.isEmpty()) {
        for (TreeSet<Wanted> q : queues.values()) {
          List<Wanted> first = new ArrayList<>();
          q.removeIf(w -> claimed.contains(w.id()) && !w.urgent() && first.add(w));
          first.forEach(w -> q.add(w.asUrgent()));
        }
      }
    }
    return waits;
  }

  private void locateAndQueue(ShuffleKey key, int reduceId) {
    Located reduce = new Located(key, reduceId);
    CompletableFuture<Void> queued = new CompletableFuture<>();
    synchronized (this) {
      if (!activate(key)) {
        return;
      }
      Set<Integer> heldBack = held.get(key);
      if (heldBack != null) {
        heldBack.add(reduceId);
        return;
      }
      locating.put(reduce, queued);
    }
    master.locate(key, reduceId, BlockLocator.ALL_MAPS).whenComplete((found, e) -> {
      try {
        if (e != null) {
          // lost maps are re-run and announced when they finish; the rest is read remotely if needed
          LOG.debug("cannot locate reduce {} of {} for prefetch: {}", reduceId, key, e.toString());
        } else {
          enqueue(key, found.locations());
        }
      } finally {
        synchronized (this) {
          locating.remove(reduce, queued);
        }
        queued.complete(null);
      }
    });
  }

  /** Queues the blocks not held here, each behind its holder, in the order of its reduce's round. */
  private void enqueue(ShuffleKey key, List<BlockLocation> blocks) {
    synchronized (this) {
      if (!activate(key)) {
        return;
      }
      Set<Integer> heldBack = held.get(key);
      for (BlockLocation b : blocks) {
        // a notice made before its reduce moved away can arrive after the move
        if (b.holder().workerId().equals(self.workerId()) || wanted.contains(b.blockId())
            || store.contains(b.blockId()) || readFromHolders.contains(b.blockId())
            || placements.placedElsewhere(key, b.blockId().reduceId(), self.workerId())) {
          continue;
        }
        if (heldBack != null) {
          heldBack.add(b.blockId().reduceId());
          continue;
        }
        wanted.add(b.blockId());
        queues.computeIfAbsent(b.holder().workerId(), k -> new TreeSet<>(QUEUE_ORDER)).add(new Wanted(b.blockId(),
            b.size(), b.holder(), false, roundOf(key, b.blockId().reduceId())));
      }
    }
    pump();
  }

  /** The round of a reduce in its shuffle's placement, as the placement book has it. */
  private int roundOf(ShuffleKey key, int reduceId) {
    return placements.placement(key, reduceId).map(PlacementBook.Placement::round).orElse(UNKNOWN_ROUND);
  }

  /** Whether blocks of the shuffle are still copied here. */
  private synchronized boolean isActive(ShuffleKey key) {
    return active.contains(key);
  }

  /** Marks the shuffle as one to copy blocks of, unless it was removed here; guarded by this. */
  private boolean activate(ShuffleKey key) {
    if (removed.contains(key) || removed.contains(key.appId())) {
      return false;
    }
    active.add(key);
    return true;
  }

  /** Starts fetches while there are queued blocks and room for another fetch. */
  private void pump() {
    List<Runnable> starts = new ArrayList<>();
    synchronized (this) {
      while (inflight() < limits.maxInflight()) {
        List<Wanted> batch = nextBatch();
        if (batch.isEmpty()) {
          break;
        }
        inflightByHolder.merge(batch.get(0).holder().workerId(), 1, Integer::sum);
        long bytes = batch.stream().mapToLong(Wanted::size).sum();
        long delayNanos = 0;
        if (limits.bytesPerSecond() > 0) {
          long now = clock.nanos();
          long start = Math.max(now, nextSendNanos);
          nextSendNanos = start + (long) (bytes * 1e9 / limits.bytesPerSecond());
          delayNanos = start - now;
        }
        long delay = delayNanos;
        starts.add(() -> {
          if (delay > 0) {
            timer.schedule(() -> fetch(batch), delay, TimeUnit.NANOSECONDS);
          } else {
            fetch(batch);
          }
        });
      }
    }
    starts.forEach(Runnable::run);
  }

  /**
   * The first blocks, in queue order up to the batch size (at least one), of the holder with the
   * fewest fetches in flight below its limit (the first such in turn), sorted by reduce then map.
   */
  private List<Wanted> nextBatch() {
    String chosen = null;
    int fewest = limits.maxInflightPerHolder();
    Iterator<Map.Entry<String, TreeSet<Wanted>>> it = queues.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, TreeSet<Wanted>> e = it.next();
      if (e.getValue().isEmpty()) {
        it.remove();
        continue;
      }
      int busy = inflightByHolder.getOrDefault(e.getKey(), 0);
      if (busy < fewest) {
        chosen = e.getKey();
        fewest = busy;
      }
    }
    if (chosen == null) {
      return List.of();
    }
    TreeSet<Wanted> q = queues.remove(chosen);
    List<Wanted> batch = new ArrayList<>();
    long bytes = 0;
    while (!q.isEmpty() && (batch.isEmpty() || bytes + q.first().size() <= limits.batchBytes())) {
      Wanted w = q.pollFirst();
      bytes += w.size();
      batch.add(w);
    }
    if (!q.isEmpty()) {
      queues.put(chosen, q); // to the back: holders with as many fetches in flight take turns
    }
    batch.sort(Comparator.comparing((Wanted w) -> w.id().appId()).thenComparingInt(w -> w.id().shuffleId())
        .thenComparingInt(w -> w.id().reduceId()).thenComparingInt(w -> w.id().mapId()));
    return batch;
  }

  private void fetch(List<Wanted> batch) {
    WorkerInfo holder = batch.get(0).holder();
    List<BlockId> ids = batch.stream().map(Wanted::id).toList();
    counters.prefetchFetches.increment();
    holders.fetch(holder, ids).whenComplete((fetched, e) -> {
      try {
        if (e != null) {
          counters.prefetchFailures.increment();
          LOG.debug("prefetch of {} blocks from {} failed: {}", ids.size(), holder.workerId(),
              ScacheException.from(e).getMessage());
        } else {
          landing.land(batch.stream().map(Wanted::id).toList(), fetched, this::isActive);
        }
      } catch (RuntimeException ex) {
        counters.prefetchFailures.increment();
        LOG.warn("prefetch of {} blocks from {} failed: {}", ids.size(), holder.workerId(), ex.toString());
      } finally {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        synchronized (this) {
          ids.forEach(id -> unwant(id, done));
          inflightByHolder.computeIfPresent(holder.workerId(), (k, n) -> n > 1 ? n - 1 : null);
        }
        done.forEach(f -> f.complete(null));
        pump();
      }
    });
  }
}
