package org.scache.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.executor.TempShuffleReadMetrics;
import org.apache.spark.shuffle.FetchFailedException;
import org.apache.spark.storage.BlockManagerId;
import org.junit.jupiter.api.Test;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;
import scala.Option;

/** How a read of a range of maps asks the worker for its blocks: ahead of their reading, within the bound. */
class ReduceBlockSourceTest {
  private static final String APP = "app-1";
  private static final int SHUFFLE = 4;
  private static final BlockManagerId HOST = BlockManagerId.apply("1", "host-a", 7337, Option.empty());

  private final ScacheClient client = mock(ScacheClient.class);
  /** The blocks asked for, in the order asked, with the answers the test gives. */
  private final Map<BlockId, CompletableFuture<ByteBuffer>> asked = new HashMap<>();
  private final List<BlockId> order = new ArrayList<>();

  ReduceBlockSourceTest() {
    when(client.getBlockAsync(any())).thenAnswer(call -> {
      BlockId id = call.getArgument(0);
      order.add(id);
      return asked.computeIfAbsent(id, k -> new CompletableFuture<>());
    });
  }

  @Test
  void mapRangeRead_asksForTheNextBlocksAheadOfTheirReading_asManyAsTheBoundHolds() throws Exception {
    // map 2's blocks of reduces 0..3, 10 bytes each, read with 20 bytes in flight at most
    TreeMap<Integer, List<ExpectedBlock>> byReduce = oneMap(2, 4, 10);
    ReduceBlockSource source = source(byReduce, 20);

    answer(2, 0);
    Iterator<ReduceBlockSource.ReadBlock> first = source.read(0, byReduce.get(0));
    assertEquals(10, first.next().data().remaining());
    assertEquals(List.of(id(2, 0), id(2, 1), id(2, 2)), order, "the first block read, the next two asked for");

    answer(2, 1);
    source.read(1, byReduce.get(1));
    assertEquals(id(2, 3), order.get(3), "the fourth asked for once the second left the bound");
    answer(2, 2);
    answer(2, 3);
    source.read(2, byReduce.get(2));
    source.read(3, byReduce.get(3));
    assertEquals(4, order.size(), "each block asked for once");
    verify(client, never()).getBlock(any());
  }

  @Test
  void mapRangeRead_blocksLargerThanTheBound_oneAskedForAhead_alwaysTheNext() throws Exception {
    TreeMap<Integer, List<ExpectedBlock>> byReduce = oneMap(0, 3, 100);
    ReduceBlockSource source = source(byReduce, 50);
    answer(0, 0);
    source.read(0, byReduce.get(0));
    assertEquals(List.of(id(0, 0), id(0, 1)), order, "the block read, then only the next");
  }

  @Test
  void mapRangeRead_aBlockTheWorkerCannotGive_failsTheFetchNamingItsMap() {
    TreeMap<Integer, List<ExpectedBlock>> byReduce = oneMap(5, 2, 10);
    ReduceBlockSource source = source(byReduce, 1 << 20);
    asked.put(id(5, 0), CompletableFuture.failedFuture(new ScacheException(Status.BLOCK_NOT_FOUND, "gone")));
    FetchFailedException failed = assertThrows(FetchFailedException.class, () -> source.read(0, byReduce.get(0)));
    assertEquals(5, ((org.apache.spark.FetchFailed) failed.toTaskFailedReason()).mapIndex());
    assertEquals(0, ((org.apache.spark.FetchFailed) failed.toTaskFailedReason()).reduceId());
  }

  private ReduceBlockSource source(TreeMap<Integer, List<ExpectedBlock>> byReduce, long maxBytesInFlight) {
    return new ReduceBlockSource(client, APP, SHUFFLE, false, new TempShuffleReadMetrics(), byReduce,
        maxBytesInFlight);
  }

  /** Map {@code map}'s blocks of reduces 0 to {@code reduces - 1}, of {@code size} bytes each. */
  private static TreeMap<Integer, List<ExpectedBlock>> oneMap(int map, int reduces, long size) {
    TreeMap<Integer, List<ExpectedBlock>> byReduce = new TreeMap<>();
    for (int r = 0; r < reduces; r++) {
      byReduce.put(r, List.of(new ExpectedBlock(map, 100 + map, r, size, HOST)));
    }
    return byReduce;
  }

  private void answer(int map, int reduce) {
    asked.computeIfAbsent(id(map, reduce), k -> new CompletableFuture<>()).complete(ByteBuffer.allocate(10));
  }

  private static BlockId id(int map, int reduce) {
    return new BlockId(APP, SHUFFLE, map, 100 + map, reduce);
  }
}
