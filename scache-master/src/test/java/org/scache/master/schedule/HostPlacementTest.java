package org.scache.master.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.scache.master.predict.ReducePrediction;

class HostPlacementTest {

  private static final List<ReducePrediction> REDUCES =
      List.of(
          ReducePrediction.withoutHost(7, 1),
          ReducePrediction.withoutHost(2, 2),
          ReducePrediction.withoutHost(5, 3),
          ReducePrediction.withoutHost(9, 4),
          ReducePrediction.withoutHost(4, 5));

  private static HostPlacement result() {
    return HostPlacement.of(List.of("a", "b"), REDUCES, Map.of(7, "a", 2, "a", 5, "a", 9, "a", 4, "b"));
  }

  @Test
  void roundOf_reducesOnHostOrderedById_roundIsPositionOverSlots() {
    HostPlacement result = result();
    assertEquals(List.of(2, 5, 7, 9), result.reducesOn("a"));
    assertEquals(0, result.roundOf(2, 2));
    assertEquals(0, result.roundOf(5, 2));
    assertEquals(1, result.roundOf(7, 2));
    assertEquals(1, result.roundOf(9, 2));
    assertEquals(0, result.roundOf(4, 2));
    assertEquals(3, result.roundOf(9, 1));
    assertEquals(2, result.rounds(2));
    assertEquals(1, result.rounds(4));
  }

  @Test
  void loads_sumReduceSizesPerHostInHostOrder() {
    HostPlacement result = result();
    assertEquals(Map.of("a", 10.0, "b", 5.0), result.loads());
    assertEquals(List.of("a", "b"), List.copyOf(result.loads().keySet()));
    assertEquals(10.0, result.maxLoad());
    assertEquals(3.0, result.sizeOf(5));
  }

  @Test
  void of_missingOrUnknownHost_throwsWithMessage() {
    assertEquals(
        "reduce 4 has no host in the assignment",
        assertThrows(
                IllegalArgumentException.class,
                () -> HostPlacement.of(List.of("a"), REDUCES, Map.of(7, "a", 2, "a", 5, "a", 9, "a", 3, "a")))
            .getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> HostPlacement.of(List.of("a"), REDUCES, Map.of(7, "a", 2, "a", 5, "a", 9, "a", 4, "z")));
  }

  @Test
  void queries_unknownReduceOrHostOrBadSlots_throw() {
    HostPlacement result = result();
    assertThrows(IllegalArgumentException.class, () -> result.hostOf(3));
    assertThrows(IllegalArgumentException.class, () -> result.loadOf("z"));
    assertThrows(IllegalArgumentException.class, () -> result.roundOf(2, 0));
  }
}
