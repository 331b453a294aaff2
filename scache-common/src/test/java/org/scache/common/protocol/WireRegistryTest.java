package org.scache.common.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.PredictorKind;

/** Message type ids and status codes are unique, one byte / small numbers, and found again by number. */
class WireRegistryTest {

  @Test
  void messageTypes_idsAreUniqueAndRoundTrip() {
    Set<Integer> ids = new HashSet<>();
    for (MessageType t : MessageType.values()) {
      assertTrue(ids.add(t.id()), "id reused: " + t);
      assertTrue(t.id() >= 0 && t.id() < 256, t + " does not fit the type byte");
      assertEquals(t, MessageType.fromId(t.id()).orElseThrow());
      assertEquals(t.id() >= 128, t.isResponse(), t + " is on the wrong side of 128");
    }
  }

  @Test
  void messageTypes_onlyBlockTransfersCarryPayload() {
    Set<MessageType> withPayload = EnumSet.noneOf(MessageType.class);
    for (MessageType t : MessageType.values()) {
      if (t.carriesPayload()) {
        withPayload.add(t);
      }
    }
    assertEquals(EnumSet.of(MessageType.PUT_BLOCK, MessageType.BLOCK_DATA, MessageType.BLOCKS_DATA,
        MessageType.PINNED_REDUCE_INPUT), withPayload);
  }

  @ParameterizedTest
  @ValueSource(ints = {-1, 0, 15, 99, 127, 200, 254, 256, 1000})
  void messageTypeFromId_unassignedId_isEmpty(int id) {
    assertTrue(MessageType.fromId(id).isEmpty());
  }

  @Test
  void statuses_codesAreUniqueAndRoundTrip() {
    Set<Integer> codes = new HashSet<>();
    for (Status s : Status.values()) {
      assertTrue(codes.add(s.code()), "code reused: " + s);
      assertEquals(s, Status.fromCode(s.code()).orElseThrow());
    }
    assertEquals(0, Status.OK.code());
  }

  @ParameterizedTest
  @ValueSource(ints = {-1, 24, 31, 32, 65535})
  void statusFromCode_unassignedCode_isEmpty(int code) {
    assertTrue(Status.fromCode(code).isEmpty());
  }

  @Test
  void partitionerKinds_codesRoundTrip() {
    for (PartitionerKind k : PartitionerKind.values()) {
      assertEquals(k, WireCodes.partitioner(WireCodes.partitioner(k)).orElseThrow());
    }
    assertTrue(WireCodes.partitioner(3).isEmpty());
  }

  @Test
  void predictorChoices_codesRoundTrip_zeroMeaningThePapersRule() {
    assertEquals(0, WireCodes.predictor(java.util.Optional.empty()));
    for (PredictorKind k : PredictorKind.values()) {
      assertEquals(java.util.Optional.of(k),
          WireCodes.predictor(WireCodes.predictor(java.util.Optional.of(k))).orElseThrow());
    }
    assertTrue(WireCodes.predictor(3).isEmpty());
  }
}
