package org.scache.worker.requests;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.BlockLocation;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.FinalAttempt;
import org.scache.worker.cluster.BlockBatch;
import org.scache.worker.cluster.BlockLocator;
import org.scache.worker.cluster.LocatedBlocks;
import org.scache.worker.cluster.PeerFetches;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.prefetch.InFlightCopies;
import org.scache.worker.store.BlockStore;
import org.scache.worker.store.PlacementBook;
import org.scache.worker.store.SpilledReads;

/**
 * Reads blocks for a client of this worker: from the local store when held here, otherwise from
 * the worker the master says holds them. When the master cannot be reached, a block is looked for on
 * the workers its shuffle's placement named ({@link PlacementBook#candidates}): where its reduce's input was
 * prefetched to first. Payloads are passed on without copying.
 */
public final class BlockReader {
  /** A reduce's input: how many maps its shuffle has and how many finished, and their blocks in map order. */
  public record ReduceInput(int numMaps, int finishedMaps, BlockBatch blocks) {}

  private final BlockStore store;
  private final SpilledReads reads;
  private final BlockLocator master;
  private final PeerFetches holders;
  private final WorkerInfo self;
  private final Duration timeout;
  private final WorkerCounters counters;
  private final ReduceInputLocator inputs;
  private final PlacementBook placements;
  private final InFlightCopies copies;
  /**
   * Where the blocks of the reduce inputs being read in parts are, located once for the whole read
   * (each part would otherwise ask the master again, over a link the prefetch fills); dropped when the
   * client asks past its last part, and all at once past {@link #MAX_READS_IN_PARTS} (reads a client gave up on).
   */
  private final Map<ReduceKey, LocatedBlocks> readsInParts = new ConcurrentHashMap<>();
  private static final int MAX_READS_IN_PARTS = 4096;

  private record ReduceKey(ShuffleKey shuffle, int reduceId) {}

  /**
   * Reads with {@code timeout} the longest a read waits for blocks on their way here (then it fetches
   * them from their holders).
   */
  public BlockReader(BlockStore store, SpilledReads reads, BlockLocator master, PeerFetches holders, WorkerInfo self,
      Duration timeout, WorkerCounters counters, ReduceInputLocator inputs, PlacementBook placements,
      InFlightCopies copies) {
    this.store = store;
    this.reads = reads;
    this.master = master;
    this.holders = holders;
    this.self = self;
    this.timeout = timeout;
    this.counters = counters;
    this.inputs = inputs;
    this.placements = placements;
    this.copies = copies;
  }

  /** One block, exactly this attempt, wherever it is stored. */
  CompletableFuture<ByteBuf> readBlock(BlockId id) {
    return reads.read(id).thenCompose(local -> {
      if (local.isPresent()) {
        countLocal(id, local.get());
        store.markConsumed(id);
        return CompletableFuture.completedFuture(local.get());
      }
      return master.locate(id.shuffle(), id.reduceId(), id.mapId())
          .handle((found, e) -> {
            if (e == null) {
              return readLocated(id, found);
            }
            ScacheException failure = ScacheException.from(e);
            return masterUnreachable(failure)
                ? readFromPeers(id, placements.candidates(id.shuffle(), id.reduceId(), self.workerId()), 0, failure)
                : CompletableFuture.<ByteBuf>failedFuture(failure);
          }).thenCompose(f -> f);
    });
  }

  private CompletableFuture<ByteBuf> readLocated(BlockId id, LocatedBlocks found) {
    BlockLocation loc = found.locations().stream().filter(l -> l.blockId().equals(id)).findFirst()
        .orElseThrow(() -> new ScacheException(Status.BLOCK_NOT_FOUND, id + " is not stored on any live worker"));
    if (loc.holder().workerId().equals(self.workerId())) {
      return reads.read(id).thenApply(again -> again.orElseThrow(() ->
          new ScacheException(Status.BLOCK_NOT_FOUND, id + " is gone")));
    }
    return fetch(loc.holder(), List.of(id)).thenApply(BlockBatch::payload);
  }

  private static boolean masterUnreachable(ScacheException e) {
    return e.status() == Status.CONNECTION_FAILED || e.status() == Status.TIMEOUT
        || e.status() == Status.SHUTTING_DOWN;
  }

  /** Asks each of {@code candidates} in turn for the block; fails with the master's failure if none has it. */
  private CompletableFuture<ByteBuf> readFromPeers(BlockId id, List<WorkerInfo> candidates, int next,
      ScacheException masterFailure) {
    if (next >= candidates.size()) {
      return CompletableFuture.failedFuture(new ScacheException(masterFailure.status(), "the master cannot be "
          + "reached to locate " + id + " (" + masterFailure.getMessage() + "), and none of the " + candidates.size()
          + " workers of its shuffle's placement holds it"));
    }
    return fetch(candidates.get(next), List.of(id)).thenApply(BlockBatch::payload)
        .handle((payload, e) -> e == null ? CompletableFuture.completedFuture(payload)
            : readFromPeers(id, candidates, next + 1, masterFailure))
        .thenCompose(f -> f);
  }

  /**
   * The final-attempt blocks of every finished map for one reduce, ordered by map id, waiting up to
   * {@code waitMillis} for every map to finish, or as long as configured when negative (see
   * {@link ReduceInputLocator}). Blocks on their way here (prefetched) are waited for, at most the
   * fetch timeout; blocks held here, put or prefetched, are read here; the rest is fetched from their
   * holders, one fetch per holder.
   */
  CompletableFuture<ReduceInput> readReduceInput(ShuffleKey shuffle, int reduceId, long waitMillis) {
    boolean placementKnown = placements.isPlaced(shuffle);
    AtomicLong fetched = new AtomicLong();
    return inputs.locate(shuffle, reduceId, waitMillis).thenCompose(found -> {
      List<BlockId> elsewhere = found.locations().stream()
          .filter(l -> !l.holder().workerId().equals(self.workerId()) && !store.contains(l.blockId()))
          .map(BlockLocation::blockId).toList();
      // at most as long as one fetch may take: then what has not landed is fetched from its holder
      return copies.whenSettled(elsewhere).completeOnTimeout(null, timeout.toMillis(), TimeUnit.MILLISECONDS)
          .thenCompose(settled -> assemble(found, reduceId, fetched))
          .thenApply(blocks -> {
            counters.activity.reduceRead(shuffle, reduceId, placementKnown,
                blocks.payload().readableBytes() - fetched.get(), fetched.get());
            return new ReduceInput(found.numMaps(), found.finishedMaps(), blocks);
          });
    });
  }

  /**
   * The next part of a reduce's input, read as its blocks land here: of the final blocks of the maps
   * not in {@code haveMaps}, those held here now; when none is, the first to land of those on their way
   * here (waited for at most the fetch timeout); when none has landed by then, all the rest, fetched from
   * their holders. No blocks when the client has them all. The maps are waited for as
   * {@link #readReduceInput} waits, and the input located once for all its parts (and forgotten with the part
   * that completes it, or, for a reader that named its maps' attempts and so asks no more, with the part that
   * gives the last located blocks); the read is counted once, with the part that completes it.
   */
  CompletableFuture<ReduceInput> readReduceInputPart(ShuffleKey shuffle, int reduceId, long waitMillis,
      Set<Integer> haveMaps, List<FinalAttempt> finalAttempts) {
    boolean placementKnown = placements.isPlaced(shuffle);
    ReduceKey key = new ReduceKey(shuffle, reduceId);
    LocatedBlocks known = haveMaps.isEmpty() ? null : readsInParts.get(key);
    if (known == null) {
      known = heldHere(shuffle, reduceId, finalAttempts).orElse(null);
      if (known != null && haveMaps.isEmpty()) {
        counters.readsLocatedHere.increment();
      }
    }
    CompletableFuture<LocatedBlocks> located = known != null ? CompletableFuture.completedFuture(known)
        : inputs.locate(shuffle, reduceId, waitMillis).thenApply(found -> {
          if (found.complete()) {
            if (readsInParts.size() >= MAX_READS_IN_PARTS) {
              readsInParts.clear();
            }
            readsInParts.put(key, found);
          }
          return found;
        });
    return located.thenCompose(found -> {
      List<BlockLocation> rest = found.locations().stream()
          .filter(l -> !haveMaps.contains(l.blockId().mapId())).toList();
      if (rest.isEmpty()) {
        readsInParts.remove(key);
        return CompletableFuture.completedFuture(new ReduceInput(found.numMaps(), found.finishedMaps(),
            new BlockBatch(List.of(), Unpooled.EMPTY_BUFFER)));
      }
      List<BlockId> onTheirWay = rest.stream().filter(l -> !readyHere(l)).map(BlockLocation::blockId).toList();
      CompletableFuture<Void> landed = onTheirWay.size() < rest.size() ? CompletableFuture.completedFuture(null)
          : copies.whenAnySettled(onTheirWay).completeOnTimeout(null, timeout.toMillis(), TimeUnit.MILLISECONDS);
      return landed.thenCompose(v -> {
        List<BlockLocation> here = rest.stream().filter(this::readyHere).toList();
        List<BlockLocation> part = here.isEmpty() ? rest : here;
        AtomicLong fetched = new AtomicLong();
        return assemble(new LocatedBlocks(found.numMaps(), found.finishedMaps(), part), reduceId, fetched)
            .thenApply(blocks -> {
              if (part.size() == rest.size()) {
                if (!finalAttempts.isEmpty()) {
                  // a reader that named its maps' attempts asks no more once it has them all
                  readsInParts.remove(key);
                }
                long total = found.locations().stream().mapToLong(BlockLocation::size).sum();
                counters.activity.reduceRead(shuffle, reduceId, placementKnown, total - fetched.get(), fetched.get());
              }
              return new ReduceInput(found.numMaps(), found.finishedMaps(), blocks);
            });
      });
    });
  }

  /**
   * The reduce's blocks of the attempts the reader named, as located blocks, when this worker holds every one of
   * them (in memory or spilled): then the master need not be asked where they are. Empty when none is named or one
   * is not held here.
   */
  private Optional<LocatedBlocks> heldHere(ShuffleKey shuffle, int reduceId, List<FinalAttempt> attempts) {
    if (attempts.isEmpty()) {
      return Optional.empty();
    }
    List<BlockLocation> held = new ArrayList<>(attempts.size());
    for (FinalAttempt a : attempts) {
      BlockId id = new BlockId(shuffle.appId(), shuffle.shuffleId(), a.mapId(), a.attempt(), reduceId);
      OptionalLong size = store.sizeOf(id);
      if (size.isEmpty()) {
        return Optional.empty();
      }
      held.add(new BlockLocation(id, size.getAsLong(), self));
    }
    return Optional.of(new LocatedBlocks(attempts.size(), attempts.size(), held));
  }

  /** Whether the block is read here: held here, or meant to be (then its loss is reported as such). */
  private boolean readyHere(BlockLocation l) {
    return l.holder().workerId().equals(self.workerId()) || store.contains(l.blockId());
  }

  /**
   * The reduce's blocks of {@code found}: those held here read here, the others fetched from their
   * holders, their bytes added to {@code fetched}.
   */
  private CompletableFuture<BlockBatch> assemble(LocatedBlocks found, int reduceId, AtomicLong fetched) {
    List<BlockLocation> locs = new ArrayList<>(found.locations());
    locs.sort(Comparator.comparingInt(l -> l.blockId().mapId()));
    Map<String, List<BlockLocation>> byHolder = new LinkedHashMap<>();
    Map<BlockId, ByteBuf> data = new ConcurrentHashMap<>();
    List<CompletableFuture<Void>> parts = new ArrayList<>();
    List<BlockId> here = new ArrayList<>();
    for (BlockLocation l : locs) {
      if (store.contains(l.blockId())) {
        here.add(l.blockId()); // held here, in memory or spilled to disk
      } else if (l.holder().workerId().equals(self.workerId())) {
        parts.add(CompletableFuture.failedFuture(new ScacheException(Status.BLOCK_NOT_FOUND,
            l.blockId() + " is no longer stored on worker " + self.workerId() + ": re-run map "
                + l.blockId().mapId())));
      } else {
        byHolder.computeIfAbsent(l.holder().workerId(), k -> new ArrayList<>()).add(l);
      }
    }
    if (!here.isEmpty()) {
      parts.add(reads.readAll(here).thenAccept(local -> {
        List<ByteBuf> got = new ArrayList<>(local.size());
        local.forEach(b -> b.ifPresent(got::add));
        if (got.size() < here.size()) {
          got.forEach(ByteBuf::release);
          throw new ScacheException(Status.BLOCK_NOT_FOUND, "blocks of reduce " + reduceId
              + " are no longer stored on worker " + self.workerId());
        }
        for (int i = 0; i < here.size(); i++) {
          countLocal(here.get(i), got.get(i));
          store.markConsumed(here.get(i));
          data.put(here.get(i), got.get(i));
        }
      }));
    }
    for (List<BlockLocation> group : byHolder.values()) {
      WorkerInfo holder = group.get(0).holder();
      List<BlockId> ids = group.stream().map(BlockLocation::blockId).toList();
      parts.add(fetch(holder, ids).thenAccept(b -> {
        fetched.addAndGet(b.payload().readableBytes());
        b.splitInto(data);
      }));
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).handle((v, e) -> {
      if (e != null) {
        // every part has finished (allOf waits for all): nothing lands in data after this
        data.values().forEach(ByteBuf::release);
        throw ScacheException.from(e);
      }
      CompositeByteBuf payload = Unpooled.compositeBuffer(Integer.MAX_VALUE);
      List<BlockSize> sizes = new ArrayList<>(locs.size());
      for (BlockLocation l : locs) {
        ByteBuf b = data.get(l.blockId());
        sizes.add(new BlockSize(l.blockId(), b.readableBytes()));
        payload.addComponent(true, b);
      }
      return new BlockBatch(sizes, payload);
    });
  }

  /** The blocks held here (in memory or spilled), for another worker; all or none. */
  CompletableFuture<BlockBatch> serveFetch(List<BlockId> ids) {
    return reads.readAll(ids).thenApply(reads -> {
      List<ByteBuf> bufs = new ArrayList<>(ids.size());
      List<BlockSize> sizes = new ArrayList<>(ids.size());
      ScacheException failure = null;
      for (int i = 0; i < ids.size(); i++) {
        Optional<ByteBuf> b = reads.get(i);
        if (b.isPresent()) {
          bufs.add(b.get());
          sizes.add(new BlockSize(ids.get(i), b.get().readableBytes()));
        } else if (failure == null) {
          failure = new ScacheException(Status.BLOCK_NOT_FOUND, ids.get(i) + " is not stored on worker "
              + self.workerId());
        }
      }
      if (failure != null) {
        bufs.forEach(ByteBuf::release);
        throw failure;
      }
      CompositeByteBuf payload = Unpooled.compositeBuffer(Integer.MAX_VALUE);
      bufs.forEach(b -> payload.addComponent(true, b));
      counters.servedFetchBlocks.add(ids.size());
      counters.servedFetchBytes.add(payload.readableBytes());
      return new BlockBatch(sizes, payload);
    });
  }

  private void countLocal(BlockId id, ByteBuf data) {
    counters.localReadBlocks.increment();
    counters.localReadBytes.add(data.readableBytes());
    if (store.isCopy(id)) {
      counters.prefetchedReadBlocks.increment();
    }
  }

  /** Fetches blocks from their holder; a holder that cannot be reached means the blocks are lost. */
  private CompletableFuture<BlockBatch> fetch(WorkerInfo holder, List<BlockId> ids) {
    return holders.fetch(holder, ids).thenApply(b -> {
      copies.readFromHolders(ids);
      counters.remoteReadBlocks.add(ids.size());
      counters.remoteReadBytes.add(b.payload().readableBytes());
      return b;
    });
  }
}
