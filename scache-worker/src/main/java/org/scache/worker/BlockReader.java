package org.scache.worker;

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
import java.util.concurrent.CompletableFuture;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.WorkerInfo;
import org.scache.common.auth.Credentials;
import org.scache.common.network.ConnectionPool;
import org.scache.common.network.Reply;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.Message.BlockLocation;
import org.scache.common.protocol.Message.BlockSize;
import org.scache.common.protocol.Message.BlocksData;
import org.scache.common.protocol.Status;

/**
 * Reads blocks for a client of this worker: from the local store when held here, otherwise from
 * the worker the master says holds them. Payloads are passed on without copying.
 */
final class BlockReader {
  /** Blocks and their concatenated bytes, which the receiver must release. */
  record Blocks(BlocksData meta, ByteBuf payload) {}

  private final BlockStore store;
  private final MasterLink master;
  private final ConnectionPool connections;
  private final Credentials cluster;
  private final WorkerInfo self;
  private final Duration timeout;
  private final WorkerCounters counters;

  BlockReader(BlockStore store, MasterLink master, ConnectionPool connections, Credentials cluster, WorkerInfo self,
      Duration timeout, WorkerCounters counters) {
    this.store = store;
    this.master = master;
    this.connections = connections;
    this.cluster = cluster;
    this.self = self;
    this.timeout = timeout;
    this.counters = counters;
  }

  /** One block, exactly this attempt, wherever it is stored. */
  CompletableFuture<ByteBuf> readBlock(BlockId id) {
    Optional<ByteBuf> local = store.read(id);
    if (local.isPresent()) {
      counters.localReadBlocks.increment();
      counters.localReadBytes.add(local.get().readableBytes());
      return CompletableFuture.completedFuture(local.get());
    }
    return master.locate(new Message.LocateBlocks(id.appId(), id.shuffleId(), id.reduceId(), id.mapId()))
        .thenCompose(found -> {
          BlockLocation loc = found.locations().stream().filter(l -> l.blockId().equals(id)).findFirst()
              .orElseThrow(() -> new ScacheException(Status.BLOCK_NOT_FOUND, id + " is not stored on any live worker"));
          if (loc.holder().workerId().equals(self.workerId())) {
            return store.read(id).map(CompletableFuture::completedFuture).orElseGet(() ->
                CompletableFuture.failedFuture(new ScacheException(Status.BLOCK_NOT_FOUND, id + " is gone")));
          }
          return fetch(loc.holder(), List.of(id)).thenApply(Blocks::payload);
        });
  }

  /** The final-attempt blocks of every finished map for one reduce, ordered by map id. */
  CompletableFuture<Blocks> readReduceInput(String appId, int shuffleId, int reduceId) {
    return master.locate(new Message.LocateBlocks(appId, shuffleId, reduceId, -1)).thenCompose(found -> {
      List<BlockLocation> locs = new ArrayList<>(found.locations());
      locs.sort(Comparator.comparingInt(l -> l.blockId().mapId()));
      Map<String, List<BlockLocation>> byHolder = new LinkedHashMap<>();
      locs.forEach(l -> byHolder.computeIfAbsent(l.holder().workerId(), k -> new ArrayList<>()).add(l));
      Map<BlockId, ByteBuf> data = new java.util.concurrent.ConcurrentHashMap<>();
      List<CompletableFuture<Void>> parts = new ArrayList<>();
      for (List<BlockLocation> group : byHolder.values()) {
        WorkerInfo holder = group.get(0).holder();
        List<BlockId> ids = group.stream().map(BlockLocation::blockId).toList();
        if (holder.workerId().equals(self.workerId())) {
          parts.add(readLocal(ids, data));
        } else {
          parts.add(fetch(holder, ids).thenAccept(b -> split(b, data)));
        }
      }
      return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).handle((v, e) -> {
        if (e != null) {
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
        return new Blocks(new BlocksData(found.numMaps(), found.finishedMaps(), sizes), payload);
      });
    });
  }

  /** The blocks held here, for another worker; all or none. */
  Blocks serveFetch(List<BlockId> ids) {
    List<ByteBuf> bufs = new ArrayList<>(ids.size());
    List<BlockSize> sizes = new ArrayList<>(ids.size());
    for (BlockId id : ids) {
      Optional<ByteBuf> b = store.read(id);
      if (b.isEmpty()) {
        bufs.forEach(ByteBuf::release);
        throw new ScacheException(Status.BLOCK_NOT_FOUND, id + " is not stored on worker " + self.workerId());
      }
      bufs.add(b.get());
      sizes.add(new BlockSize(id, b.get().readableBytes()));
    }
    CompositeByteBuf payload = Unpooled.compositeBuffer(Integer.MAX_VALUE);
    bufs.forEach(b -> payload.addComponent(true, b));
    counters.servedFetchBlocks.add(ids.size());
    counters.servedFetchBytes.add(payload.readableBytes());
    return new Blocks(new BlocksData(0, 0, sizes), payload);
  }

  private CompletableFuture<Void> readLocal(List<BlockId> ids, Map<BlockId, ByteBuf> into) {
    for (BlockId id : ids) {
      Optional<ByteBuf> b = store.read(id);
      if (b.isEmpty()) {
        return CompletableFuture.failedFuture(new ScacheException(Status.BLOCK_NOT_FOUND,
            id + " is no longer stored on worker " + self.workerId()));
      }
      counters.localReadBlocks.increment();
      counters.localReadBytes.add(b.get().readableBytes());
      into.put(id, b.get());
    }
    return CompletableFuture.completedFuture(null);
  }

  /** Fetches blocks from another worker; a holder that cannot be reached means the blocks are lost. */
  private CompletableFuture<Blocks> fetch(WorkerInfo holder, List<BlockId> ids) {
    return connections.get(holder.host(), holder.port())
        .thenCompose(c -> c.call(new Message.FetchBlocks(ids), Optional.of(cluster), timeout))
        .handle((Reply r, Throwable e) -> {
          if (e != null) {
            ScacheException se = ScacheException.from(e);
            if (se.status() == Status.CONNECTION_FAILED || se.status() == Status.TIMEOUT) {
              throw new ScacheException(Status.BLOCK_NOT_FOUND, "blocks of maps " + mapIds(ids) + " are lost: worker "
                  + holder.workerId() + " cannot be reached (" + se.getMessage() + ")");
            }
            throw se;
          }
          BlocksData meta = r.as(BlocksData.class);
          if (meta.totalBytes() != r.payload().readableBytes() || meta.blocks().size() != ids.size()) {
            r.payload().release();
            throw new ScacheException(Status.MALFORMED_MESSAGE, "worker " + holder.workerId() + " sent "
                + r.payload().readableBytes() + " bytes for blocks that add up to " + meta.totalBytes());
          }
          counters.remoteReadBlocks.add(ids.size());
          counters.remoteReadBytes.add(r.payload().readableBytes());
          return new Blocks(meta, r.payload());
        });
  }

  private static void split(Blocks blocks, Map<BlockId, ByteBuf> into) {
    ByteBuf all = blocks.payload();
    int offset = all.readerIndex();
    for (BlockSize b : blocks.meta().blocks()) {
      into.put(b.blockId(), all.retainedSlice(offset, (int) b.size()));
      offset += (int) b.size();
    }
    all.release();
  }

  private static List<Integer> mapIds(List<BlockId> ids) {
    return ids.stream().map(BlockId::mapId).distinct().toList();
  }
}
