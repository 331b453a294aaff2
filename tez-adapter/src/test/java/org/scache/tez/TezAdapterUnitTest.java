package org.scache.tez;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.tez.runtime.api.events.CompositeRoutedDataMovementEvent;
import org.apache.tez.runtime.api.events.DataMovementEvent;
import org.apache.tez.runtime.api.events.InputFailedEvent;
import org.junit.jupiter.api.Test;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;

/** The adapter's pieces that need no cluster: event bookkeeping, payload formats, placement rules. */
class TezAdapterUnitTest {
  private static final WorkerInfo W1 = new WorkerInfo("h:1", "h", 1);
  private static final WorkerInfo W2 = new WorkerInfo("h:2", "h", 2);

  private static ByteBuffer report(int map, int attempt) {
    return new ProducerReport(7, map, attempt, 4, "h:1", "container_1").encode();
  }

  @Test
  void producerReport_roundTrips_andOtherPayloadsAreNotReports() {
    ProducerReport r = new ProducerReport(1007, 3, 2, 16, "host:17020", "container_e01_1_0001_01_000002");
    assertEquals(Optional.of(r), ProducerReport.decode(r.encode()));
    assertEquals(Optional.empty(), ProducerReport.decode(ByteBuffer.wrap(new byte[] {8, 1, 16, 2, 3, 4})));
    assertEquals(Optional.empty(), ProducerReport.decode(null));
    assertThrows(IllegalArgumentException.class, () -> ProducerReport.require(ByteBuffer.allocate(2), "event"));
  }

  @Test
  void producerReport_ofAnOutputWrittenAsTezShuffle_roundTrips_withWhereItIsServed() {
    ProducerReport r = new ProducerReport(1007, 3, 2, 16, "host:17020", "container_e01_1_0001_01_000002")
        .writtenAsTez(new TezShuffleOutput("node7", 13562, "attempt_1_0001_1_00_000003_2_10002"));
    assertEquals(Optional.of(r), ProducerReport.decode(r.encode()));
    ProducerReport empty = r.writtenAsTez(TezShuffleOutput.EMPTY);
    assertTrue(ProducerReport.decode(empty.encode()).orElseThrow().onTez().empty(), "every partition empty");
  }

  @Test
  void tezBlockHeader_roundTrips_andRejectsWrongLengths() throws IOException {
    ByteBuffer block = ByteBuffer.allocate(TezBlock.HEADER_BYTES + 5);
    new TezBlock(9, 5).writeHeader(block.duplicate());
    TezBlock read = TezBlock.readHeader(block.duplicate(), "block");
    assertEquals(new TezBlock(9, 5), read);
    ByteBuffer shortBlock = ByteBuffer.allocate(TezBlock.HEADER_BYTES + 4);
    new TezBlock(9, 5).writeHeader(shortBlock.duplicate());
    assertThrows(IOException.class, () -> TezBlock.readHeader(shortBlock, "block"));
    assertThrows(IOException.class, () -> TezBlock.readHeader(ByteBuffer.allocate(TezBlock.HEADER_BYTES), "block"));
  }

  @Test
  void consumerInputs_compositeEvent_namesMapPartitionAndAttemptOfEveryInput() {
    ConsumerInputs inputs = new ConsumerInputs(4);
    // two producers, a consumer reading partitions 2 and 3 of each: targets 0..3
    // (source index = first partition, target index, count, version = producer attempt, payload)
    inputs.apply(List.of(CompositeRoutedDataMovementEvent.create(2, 0, 2, 1, report(0, 1)),
        CompositeRoutedDataMovementEvent.create(2, 2, 2, 0, report(1, 0))));
    assertTrue(inputs.allKnown());
    assertEquals(7, inputs.shuffleId());
    assertEquals(Set.of(2, 3), inputs.partitions());
    assertEquals(List.of(new ConsumerInputs.Source(0, 0, 1, 2), new ConsumerInputs.Source(1, 0, 1, 3),
        new ConsumerInputs.Source(2, 1, 0, 2), new ConsumerInputs.Source(3, 1, 0, 3)), inputs.unread());
  }

  @Test
  void consumerInputs_inputFailedBeforeRead_waitsForTheNewAttempt() {
    ConsumerInputs inputs = new ConsumerInputs(1);
    inputs.apply(List.of(DataMovementEvent.create(0, 0, 0, report(0, 0))));
    inputs.apply(List.of(InputFailedEvent.create(0, 0)));
    assertFalse(inputs.allKnown(), "the obsolete attempt is forgotten");
    inputs.apply(List.of(DataMovementEvent.create(0, 0, 1, report(0, 1))));
    assertEquals(List.of(new ConsumerInputs.Source(0, 0, 1, 0)), inputs.unread());
    assertTrue(inputs.markRead(inputs.unread().get(0)));
    assertTrue(inputs.allRead());
    assertNull(inputs.obsoleteAfterRead());
  }

  @Test
  void consumerInputs_inputFailedAfterRead_failsTheConsumerAttempt() {
    ConsumerInputs inputs = new ConsumerInputs(1);
    inputs.apply(List.of(DataMovementEvent.create(0, 0, 0, report(0, 0))));
    ConsumerInputs.Source s = inputs.unread().get(0);
    assertTrue(inputs.markRead(s));
    inputs.apply(List.of(InputFailedEvent.create(0, 0)));
    assertNotNull(inputs.obsoleteAfterRead());
  }

  @Test
  void consumerInputs_staleSourceIsNotMarkedRead() {
    ConsumerInputs inputs = new ConsumerInputs(1);
    inputs.apply(List.of(DataMovementEvent.create(0, 0, 0, report(0, 0))));
    ConsumerInputs.Source stale = inputs.unread().get(0);
    inputs.apply(List.of(InputFailedEvent.create(0, 0), DataMovementEvent.create(0, 0, 1, report(0, 1))));
    assertFalse(inputs.markRead(stale), "a block read for a replaced attempt is not used");
    assertFalse(inputs.allRead());
  }

  @Test
  void consumerPlacement_majorityOfPartitionsAndShuffles_tiesGoToTheLastShuffle() {
    ShufflePlacement left = new ShufflePlacement("app", 1, "p", List.of(
        new ReduceAssignment(0, W1, 0), new ReduceAssignment(1, W2, 0),
        new ReduceAssignment(2, W2, 0)));
    ShufflePlacement right = new ShufflePlacement("app", 2, "p", List.of(
        new ReduceAssignment(0, W2, 0), new ReduceAssignment(1, W2, 0),
        new ReduceAssignment(2, W1, 0)));
    assertEquals(Optional.of(W2), ConsumerPlacement.workerFor(List.of(left), List.of(1, 2)));
    assertEquals(Optional.of(W1), ConsumerPlacement.workerFor(List.of(left), List.of(0)));
    // partition 0: W1 in the first shuffle, W2 in the last: the tie goes to the last
    assertEquals(Optional.of(W2), ConsumerPlacement.workerFor(List.of(left, right), List.of(0)));
    assertEquals(Optional.empty(), ConsumerPlacement.workerFor(List.of(left), List.of(5)));
  }

  @Test
  void partitionRanges_matchTezAutoParallelismGrouping() {
    assertEquals(1, PartitionRanges.baseRange(10, 10));
    assertEquals(2, PartitionRanges.baseRange(10, 5));
    assertEquals(3, PartitionRanges.baseRange(10, 4));
    assertEquals(10, PartitionRanges.baseRange(10, 1));
  }

  @Test
  void shuffleIds_areDistinctPerDagAndEdge_andBounded() {
    assertEquals(3, TezScacheSettings.shuffleId(0, 3));
    assertEquals(2003, TezScacheSettings.shuffleId(2, 3));
    assertThrows(IllegalArgumentException.class, () -> TezScacheSettings.shuffleId(1, 1000));
    assertThrows(IllegalArgumentException.class, () -> TezScacheSettings.shuffleId(Integer.MAX_VALUE / 10, 0));
  }
}
