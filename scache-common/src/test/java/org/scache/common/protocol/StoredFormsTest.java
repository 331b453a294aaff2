package org.scache.common.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;

/** A shuffle's registration and placement read back from their kept bytes as they were, and bad bytes refused. */
class StoredFormsTest {
  private static ShufflePlacement placement(int reduces) {
    List<WorkerInfo> workers = List.of(new WorkerInfo("w1", "host-1", 17020), new WorkerInfo("w2", "host-2", 17020));
    List<ReduceAssignment> list = new ArrayList<>();
    for (int r = 0; r < reduces; r++) {
      list.add(new ReduceAssignment(r, workers.get(r % 2), r / 2, 1000L * r));
    }
    return new ShufflePlacement("app-1", 3, "heuristic-minheap", list);
  }

  @Test
  void specAndPlacement_readBackEqual() throws Exception {
    ShuffleSpec spec = new ShuffleSpec("app-1", 3, 4, 6, PartitionerKind.RANGE, 123);
    assertEquals(spec, StoredForms.spec(StoredForms.spec(spec)));
    ShufflePlacement p = placement(6);
    assertEquals(p, StoredForms.placement(StoredForms.placement(p)));
  }

  @Test
  void aPlacementOfTenThousandReduces_fitsWellUnderZooKeepersNodeLimit() throws Exception {
    byte[] kept = StoredForms.placement(placement(10_000));
    assertTrue(kept.length < 256 * 1024, kept.length + " bytes");
    assertEquals(10_000, StoredForms.placement(kept).assignments().size());
  }

  @Test
  void bytesThatAreNotAKeptForm_areRefused() {
    byte[] spec = StoredForms.spec(new ShuffleSpec("app-1", 3, 4, 6, PartitionerKind.HASH, 0));
    assertThrows(MalformedMessageException.class, () -> StoredForms.placement(spec), "a spec is not a placement");
    assertThrows(MalformedMessageException.class, () -> StoredForms.spec(new byte[] {1, 2, 3}));
    assertThrows(MalformedMessageException.class, () -> StoredForms.spec(Arrays.copyOf(spec, spec.length / 2)));
  }

  @Test
  void aSpecKeptBeforeShufflesCouldBeReadInRangesMovedAtMapEndOrWrittenInSegments_readsWithoutThem() throws Exception {
    ShuffleSpec spec = new ShuffleSpec("app-1", 3, 4, 6, PartitionerKind.HASH, 0, List.of(),
        ShuffleSpec.NO_STAGE, Optional.empty(), 2, true, true, 2);
    ByteBuf now = Unpooled.buffer();
    try {
      MessageCodec.encode(new RegisterShuffle(spec), now);
      assertEquals(spec, ((RegisterShuffle) MessageCodec.decode(MessageType.REGISTER_SHUFFLE,
          now.duplicate())).shuffle());
      ShuffleSpec bothFlags = ((RegisterShuffle) MessageCodec.decode(MessageType.REGISTER_SHUFFLE,
          now.slice(0, now.readableBytes() - 4))).shuffle();
      assertEquals(1, bothFlags.mapsPerTask(), "maps per task are the form's last four bytes, absent from older forms");
      assertEquals(4, bothFlags.numTasks());
      assertTrue(bothFlags.reducesAfterMaps());
      ShuffleSpec withRanges = ((RegisterShuffle) MessageCodec.decode(MessageType.REGISTER_SHUFFLE,
          now.slice(0, now.readableBytes() - 5))).shuffle();
      assertTrue(withRanges.readsRanges());
      assertFalse(withRanges.reducesAfterMaps(), "the flag before them, absent from still older forms");
      ShuffleSpec older = ((RegisterShuffle) MessageCodec.decode(MessageType.REGISTER_SHUFFLE,
          now.slice(0, now.readableBytes() - 6))).shuffle();
      assertFalse(older.readsRanges(), "the byte before it, absent from the oldest forms");
      assertFalse(older.reducesAfterMaps());
      assertEquals(2, older.slotsPerWorker());
      now.setInt(now.writerIndex() - 4, 3);
      assertThrows(MalformedMessageException.class, () -> MessageCodec.decode(MessageType.REGISTER_SHUFFLE,
          now.duplicate()), "3 maps per task do not divide 4 maps");
      now.setInt(now.writerIndex() - 4, 2);
      now.setByte(now.writerIndex() - 5, 2);
      assertThrows(MalformedMessageException.class, () -> MessageCodec.decode(MessageType.REGISTER_SHUFFLE, now));
    } finally {
      now.release();
    }
  }
}
