package org.scache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.scache.common.BlockId;

class ReduceInputPartsTest {
  private final AtomicInteger released = new AtomicInteger();
  /** The worker's answers, in the order the parts are asked for. */
  private final List<CompletableFuture<ReduceInputParts.Part>> answers =
      List.of(new CompletableFuture<>(), new CompletableFuture<>(), new CompletableFuture<>());
  private final List<Set<Integer>> askedAfter = new ArrayList<>();

  private final ReduceInputParts parts = new ReduceInputParts(have -> {
    askedAfter.add(have);
    return answers.get(askedAfter.size() - 1);
  }, Set.of());

  private ReduceInputParts.Part partOf(int... maps) {
    List<ReduceInput.Block> blocks = new ArrayList<>();
    for (int map : maps) {
      blocks.add(new ReduceInput.Block(new BlockId("app", 0, map, 0, 0), ByteBuffer.allocate(1)));
    }
    List<ByteBuffer> buffers = blocks.stream().map(ReduceInput.Block::data).toList();
    return new ReduceInputParts.Part(new ReduceInput(4, maps.length, blocks, buffers,
        b -> released.incrementAndGet()), false);
  }

  @Test
  void eachPart_givesTheMapsNotGivenBefore_andAsksForTheNextAtOnce() {
    answers.get(0).complete(partOf(0, 1));

    assertEquals(2, parts.next().blocks().size());
    assertEquals(List.of(Set.of(), Set.of(0, 1)), askedAfter, "the next part is asked for before the reader wants it");

    answers.get(1).complete(partOf(1, 2));
    assertEquals(List.of(2), parts.next().blocks().stream().map(b -> b.blockId().mapId()).toList());
  }

  @Test
  void aPartCompletingTheNamedMaps_isTheLast_andNothingMoreIsAsked() {
    List<Set<Integer>> asked = new ArrayList<>();
    ReduceInputParts named = new ReduceInputParts(have -> {
      asked.add(have);
      return CompletableFuture.completedFuture(asked.size() == 1 ? partOf(0, 2) : partOf(1));
    }, Set.of(0, 1, 2));

    assertEquals(2, named.next().blocks().size());
    assertEquals(1, named.next().blocks().size());
    assertEquals(List.of(Set.of(), Set.of(0, 2)), asked, "no part is asked for after maps 0, 1 and 2 came");
    assertTrue(named.next().blocks().isEmpty(), "and none is given");
    assertEquals(2, asked.size());
  }

  @Test
  void closingParts_releasesThePartAskedAhead_whenItArrives_andGivesNoMore() {
    answers.get(0).complete(partOf(0));
    parts.next().release();
    assertEquals(1, released.get());

    parts.close();
    assertEquals(1, released.get(), "the part ahead has not arrived yet");
    answers.get(1).complete(partOf(1));

    assertEquals(2, released.get(), "the part that arrived after the close went back");
    assertTrue(parts.next().blocks().isEmpty());
    assertEquals(2, askedAfter.size(), "nothing more is asked after the close");
  }
}
