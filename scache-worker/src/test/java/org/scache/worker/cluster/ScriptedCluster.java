package org.scache.worker.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.BlockLocation;
import org.scache.common.shuffle.BlockSize;

/**
 * The rest of the cluster as a worker's parts see it, scripted: the master that locates blocks and
 * the workers that hold them. Fetches can be held back and let go one at a time, to see the order
 * in which a part asks for blocks.
 */
public final class ScriptedCluster implements BlockLocator, PeerFetches {
  /** One fetch as it was asked for. */
  public record Fetch(WorkerInfo holder, List<BlockId> ids) {}

  private final Map<BlockId, byte[]> bytes = new LinkedHashMap<>();
  private final Map<BlockId, WorkerInfo> holders = new LinkedHashMap<>();
  private final Map<ShuffleKey, Integer> numMaps = new LinkedHashMap<>();
  private final Set<String> unreachable = new HashSet<>();
  private final List<Fetch> fetches = new ArrayList<>();
  private final List<Held> heldBack = new ArrayList<>();

  /** A fetch held back: its holder and how it answers. */
  private record Held(WorkerInfo holder, Runnable answer) {}
  private boolean masterDown;
  private boolean holdFetches;
  private boolean holdLocates;
  private final List<Runnable> heldLocates = new ArrayList<>();
  private int locates;

  /** {@code holder} stores {@code id}, {@code size} bytes of {@code id.mapId()}, and the master knows it. */
  public synchronized ScriptedCluster hold(WorkerInfo holder, BlockId id, int size) {
    byte[] b = new byte[size];
    java.util.Arrays.fill(b, (byte) id.mapId());
    bytes.put(id, b);
    holders.put(id, holder);
    return this;
  }

  /** The shuffle has {@code maps} maps, finished or not (default: as many as hold blocks). */
  public synchronized ScriptedCluster maps(ShuffleKey shuffle, int maps) {
    numMaps.put(shuffle, maps);
    return this;
  }

  public synchronized void masterDown() {
    masterDown = true;
  }

  public synchronized void unreachable(WorkerInfo holder) {
    unreachable.add(holder.workerId());
  }

  /** From now on the master's answers to locates wait until {@link #releaseLocates}. */
  public synchronized void holdLocates() {
    holdLocates = true;
  }

  /** Stops holding locates back and lets every held one answer. */
  public void releaseLocates() {
    List<Runnable> answers;
    synchronized (this) {
      holdLocates = false;
      answers = List.copyOf(heldLocates);
      heldLocates.clear();
    }
    answers.forEach(Runnable::run);
  }

  /** From now on fetches wait until {@link #releaseOne} or {@link #releaseAll}. */
  public synchronized void holdFetches() {
    holdFetches = true;
  }

  /** Lets the oldest fetch held back answer; false when none is held back. */
  boolean releaseOne() {
    return releaseOneFrom(null);
  }

  /** Lets the oldest fetch held back from {@code holder} (any holder when null) answer; false when none is. */
  public boolean releaseOneFrom(WorkerInfo holder) {
    Held h = null;
    synchronized (this) {
      for (Held candidate : heldBack) {
        if (holder == null || candidate.holder().equals(holder)) {
          h = candidate;
          break;
        }
      }
      if (h == null) {
        return false;
      }
      heldBack.remove(h);
    }
    h.answer().run();
    return true;
  }

  /** Stops holding fetches back and lets every held one answer, the oldest first. */
  public void releaseAll() {
    synchronized (this) {
      holdFetches = false;
    }
    while (releaseOne()) {
      // each answer may start another fetch, which is not held back
    }
  }

  public synchronized List<Fetch> fetches() {
    return List.copyOf(fetches);
  }

  /** The blocks asked for, in the order asked. */
  public synchronized List<BlockId> fetchedIds() {
    return fetches.stream().flatMap(f -> f.ids().stream()).toList();
  }

  public synchronized int locates() {
    return locates;
  }

  /** The bytes {@code id} holds, as {@link #hold} made them. */
  public synchronized byte[] bytesOf(BlockId id) {
    return bytes.get(id);
  }

  @Override
  public synchronized CompletableFuture<LocatedBlocks> locate(ShuffleKey shuffle, int reduceId, int mapId) {
    locates++;
    if (masterDown) {
      return CompletableFuture.failedFuture(new ScacheException(Status.CONNECTION_FAILED, "the master is down"));
    }
    List<BlockLocation> found = new ArrayList<>();
    Set<Integer> finished = new HashSet<>();
    for (Map.Entry<BlockId, WorkerInfo> e : holders.entrySet()) {
      BlockId id = e.getKey();
      if (id.shuffle().equals(shuffle)) {
        finished.add(id.mapId());
        if (id.reduceId() == reduceId && (mapId == ALL_MAPS || id.mapId() == mapId)) {
          found.add(new BlockLocation(id, bytes.get(id).length, e.getValue()));
        }
      }
    }
    LocatedBlocks answer = new LocatedBlocks(numMaps.getOrDefault(shuffle, finished.size()), finished.size(), found);
    if (holdLocates) {
      CompletableFuture<LocatedBlocks> later = new CompletableFuture<>();
      heldLocates.add(() -> later.complete(answer));
      return later;
    }
    return CompletableFuture.completedFuture(answer);
  }

  @Override
  public CompletableFuture<BlockBatch> fetch(WorkerInfo holder, List<BlockId> ids) {
    CompletableFuture<BlockBatch> result = new CompletableFuture<>();
    Runnable answer = () -> answer(holder, ids, result);
    boolean hold;
    synchronized (this) {
      fetches.add(new Fetch(holder, List.copyOf(ids)));
      hold = holdFetches;
      if (hold) {
        heldBack.add(new Held(holder, answer));
      }
    }
    if (!hold) {
      answer.run();
    }
    return result;
  }

  private void answer(WorkerInfo holder, List<BlockId> ids, CompletableFuture<BlockBatch> result) {
    List<BlockSize> sizes = new ArrayList<>();
    ByteBuf payload = Unpooled.buffer();
    synchronized (this) {
      if (unreachable.contains(holder.workerId())) {
        payload.release();
        result.completeExceptionally(new ScacheException(Status.BLOCK_NOT_FOUND, "worker " + holder.workerId()
            + " cannot be reached"));
        return;
      }
      for (BlockId id : ids) {
        if (!holder.equals(holders.get(id))) {
          payload.release();
          result.completeExceptionally(new ScacheException(Status.BLOCK_NOT_FOUND, id + " is not stored on worker "
              + holder.workerId()));
          return;
        }
        sizes.add(new BlockSize(id, bytes.get(id).length));
        payload.writeBytes(bytes.get(id));
      }
    }
    result.complete(new BlockBatch(sizes, payload));
  }
}
