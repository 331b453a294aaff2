package org.scache.common.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.scache.common.protocol.Ack;
import org.scache.common.protocol.DecodeFailure;
import org.scache.common.protocol.ErrorAnswer;
import org.scache.common.protocol.GetWorkerStats;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.ListWorkers;
import org.scache.common.protocol.MessageType;
import org.scache.common.protocol.OutboundFrame;
import org.scache.common.protocol.Status;

class RequestTimerTest {
  private record Seen(MessageType type, Status status, long nanos) {}

  @Test
  void eachAnswer_isTimedFromItsRequest_withItsStatus() {
    List<Seen> seen = new ArrayList<>();
    List<Status> refused = new ArrayList<>();
    RequestObserver observer = new RequestObserver() {
      @Override
      public void answered(MessageType request, Status status, long nanos) {
        seen.add(new Seen(request, status, nanos));
      }

      @Override
      public void refused(Status status) {
        refused.add(status);
      }
    };
    EmbeddedChannel ch = new EmbeddedChannel(new RequestTimer(observer));
    ch.writeInbound(new InboundFrame(7, new GetWorkerStats(), Optional.empty(), 0));
    ch.writeInbound(new InboundFrame(8, new ListWorkers(), Optional.empty(), 0));
    ch.writeInbound(new DecodeFailure(9, Status.MALFORMED_MESSAGE, "bad", false));
    ch.writeOutbound(OutboundFrame.of(8, new ErrorAnswer(Status.RETRY_LATER, "busy")));
    ch.writeOutbound(OutboundFrame.of(7, new Ack()));
    ch.writeOutbound(OutboundFrame.of(7, new Ack())); // answered once already: not counted again
    assertEquals(List.of(MessageType.LIST_WORKERS, MessageType.GET_WORKER_STATS),
        seen.stream().map(Seen::type).toList());
    assertEquals(List.of(Status.RETRY_LATER, Status.OK), seen.stream().map(Seen::status).toList());
    assertTrue(seen.stream().allMatch(s -> s.nanos() >= 0));
    assertEquals(List.of(Status.MALFORMED_MESSAGE), refused);
    ch.finishAndReleaseAll();
  }

  @Test
  void requestsNeverAnswered_costBoundedMemory() {
    List<Seen> seen = new ArrayList<>();
    EmbeddedChannel ch = new EmbeddedChannel(new RequestTimer((t, s, n) -> seen.add(new Seen(t, s, n))));
    for (int i = 0; i < RequestTimer.MAX_OPEN + 10; i++) {
      ch.writeInbound(new InboundFrame(i, new GetWorkerStats(), Optional.empty(), 0));
    }
    ch.writeOutbound(OutboundFrame.of(0, new Ack()));
    assertTrue(seen.isEmpty(), "the oldest requests were forgotten");
    ch.writeOutbound(OutboundFrame.of(RequestTimer.MAX_OPEN + 9, new Ack()));
    assertEquals(1, seen.size());
    ch.finishAndReleaseAll();
  }
}
