package org.scache.common.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class PredictorKindTest {

  @Test
  void forPartitioner_hash_usesRegression() {
    assertEquals(PredictorKind.REGRESSION, PredictorKind.forPartitioner(PartitionerKind.HASH));
  }

  @Test
  void forPartitioner_rangeOrCustom_usesSampling() {
    assertEquals(PredictorKind.SAMPLING, PredictorKind.forPartitioner(PartitionerKind.RANGE));
    assertEquals(PredictorKind.SAMPLING, PredictorKind.forPartitioner(PartitionerKind.CUSTOM));
  }

  @Test
  void choose_override_winsOverRule() {
    assertEquals(
        PredictorKind.SAMPLING, PredictorKind.choose(PartitionerKind.HASH, Optional.of(PredictorKind.SAMPLING)));
    assertEquals(
        PredictorKind.REGRESSION, PredictorKind.choose(PartitionerKind.RANGE, Optional.of(PredictorKind.REGRESSION)));
  }

  @Test
  void choose_noOverride_followsRule() {
    assertEquals(PredictorKind.SAMPLING, PredictorKind.choose(PartitionerKind.CUSTOM, Optional.empty()));
  }
}
