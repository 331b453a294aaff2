package org.scache.worker.cluster;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.WorkerInfo;
import org.scache.common.auth.Credentials;
import org.scache.common.network.ClientConnection;
import org.scache.common.network.ClientConnections;
import org.scache.common.network.Reply;
import org.scache.common.protocol.BlocksData;
import org.scache.common.protocol.FetchBlocks;
import org.scache.common.protocol.Status;

/** Fetches blocks from other workers over the cluster's connections, signed as the cluster. */
public final class NetworkPeerFetches implements PeerFetches {
  private final ClientConnections connections;
  private final Credentials cluster;
  private final Duration timeout;

  public NetworkPeerFetches(ClientConnections connections, Credentials cluster, Duration timeout) {
    this.connections = connections;
    this.cluster = cluster;
    this.timeout = timeout;
  }

  @Override
  public CompletableFuture<BlockBatch> fetch(WorkerInfo holder, List<BlockId> ids) {
    CompletableFuture<? extends ClientConnection> connection = connections.get(holder.host(), holder.port());
    return connection.handle((c, e) -> {
      if (e != null) {
        // the holder refuses connections: it is gone, and so are its blocks
        throw new ScacheException(Status.BLOCK_NOT_FOUND, "blocks of maps " + mapIds(ids) + " are lost: worker "
            + holder.workerId() + " cannot be reached (" + ScacheException.from(e).getMessage() + ")");
      }
      return c;
    }).thenCompose(c -> c.call(new FetchBlocks(ids), Optional.of(cluster), timeout))
        .thenApply(r -> batch(holder, ids, r));
  }

  private static BlockBatch batch(WorkerInfo holder, List<BlockId> ids, Reply r) {
    BlocksData meta;
    try {
      meta = r.as(BlocksData.class);
    } catch (RuntimeException e) {
      r.payload().release();
      throw e;
    }
    BlockBatch batch = new BlockBatch(meta.blocks(), r.payload());
    if (meta.blocks().size() != ids.size() || !batch.sizesAddUp()) {
      String what = "worker " + holder.workerId() + " sent " + meta.blocks().size() + " blocks that add up to "
          + meta.totalBytes() + " bytes, with " + r.payload().readableBytes() + " bytes, for " + ids.size() + " blocks";
      r.payload().release();
      throw new ScacheException(Status.MALFORMED_MESSAGE, what);
    }
    return batch;
  }

  private static List<Integer> mapIds(List<BlockId> ids) {
    return ids.stream().map(BlockId::mapId).distinct().toList();
  }
}
