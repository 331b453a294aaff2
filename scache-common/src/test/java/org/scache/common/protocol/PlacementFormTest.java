package org.scache.common.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.testing.SampleMessages;

class PlacementFormTest {
  private static ShufflePlacement placement(int reduces, List<WorkerInfo> on) {
    List<ReduceAssignment> list = new ArrayList<>();
    for (int r = 0; r < reduces; r++) {
      list.add(new ReduceAssignment(r, on.get(r % on.size()), r / 7, r * 100L));
    }
    return new ShufflePlacement("app-1", 3, "heuristic-minheap", list);
  }

  private static byte[] encode(Message m) {
    ByteBuf out = Unpooled.buffer();
    try {
      MessageCodec.encode(m, out);
      byte[] b = new byte[out.readableBytes()];
      out.readBytes(b);
      return b;
    } finally {
      out.release();
    }
  }

  @Test
  void aPlacement_namesEachWorkerOnce_andTakes20BytesAReduce_whateverItsWorkersNames() {
    List<WorkerInfo> longNamed = List.of(new WorkerInfo("w".repeat(300), "h".repeat(300), 1),
        new WorkerInfo("v".repeat(300), "g".repeat(300), 2));
    ShufflePlacement small = placement(1000, longNamed);
    ShufflePlacement large = placement(2000, longNamed);
    int growth = encode(new ScheduleResult(large)).length - encode(new ScheduleResult(small)).length;
    assertEquals(1000 * PlacementForm.ASSIGNMENT_BYTES, growth, "a thousand reduces more");
    assertEquals(encode(new ScheduleResult(large)).length, PlacementForm.encodedBytes(large));
  }

  @Test
  void aPlacementReadBack_equalsTheOneWritten_andSharesOneObjectPerWorker() throws Exception {
    ShufflePlacement written = placement(50, List.of(SampleMessages.WORKER_1, SampleMessages.WORKER_2));
    ScheduleResult read = (ScheduleResult) MessageCodec.decode(MessageType.SCHEDULE_RESULT,
        Unpooled.wrappedBuffer(encode(new ScheduleResult(written))));
    assertEquals(written, read.placement());
    assertSame(read.placement().assignments().get(0).worker(), read.placement().assignments().get(2).worker());
  }

  @Test
  void aWorkerIndexPastTheWorkersNamed_isMalformed() {
    byte[] bytes = encode(new ScheduleResult(placement(2, List.of(SampleMessages.WORKER_1, SampleMessages.WORKER_2))));
    // the last assignment's worker index sits 16 bytes before the end (index, round, predicted bytes)
    bytes[bytes.length - 16 + 3] = 2;
    MalformedMessageException e = assertThrows(MalformedMessageException.class,
        () -> MessageCodec.decode(MessageType.SCHEDULE_RESULT, Unpooled.wrappedBuffer(bytes)));
    assertTrue(e.getMessage().contains("worker index 2"), e.getMessage());
  }

  @Test
  void everyMessageEncodedOnce_writesTheBytesOfTheMessageItself_andKeepsItsType() {
    for (MessageType type : MessageType.values()) {
      Message m = SampleMessages.of(type);
      EncodedOnce once = EncodedOnce.of(m);
      assertEquals(type, once.type());
      assertSame(m, once.message());
      assertSame(once, EncodedOnce.of(once));
      assertEquals(java.util.HexFormat.of().formatHex(encode(m)), java.util.HexFormat.of().formatHex(encode(once)),
          type + " encoded once");
    }
  }
}
