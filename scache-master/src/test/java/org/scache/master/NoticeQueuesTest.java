package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.scache.common.BlockId;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.MapOutputReady;
import org.scache.common.protocol.MapOutputsReady;
import org.scache.common.protocol.Message;
import org.scache.common.shuffle.BlockSize;

class NoticeQueuesTest {
  private static final WorkerInfo W1 = new WorkerInfo("w1", "h1", 1);
  private static final WorkerInfo W2 = new WorkerInfo("w2", "h2", 2);
  private static final WorkerInfo HOLDER = new WorkerInfo("w3", "h3", 3);

  private record Told(WorkerInfo to, Message message, CompletableFuture<Void> answered) {}

  private final List<Told> told = new ArrayList<>();
  private final NoticeQueues queues = new NoticeQueues(new WorkerNotifier() {
    @Override
    public synchronized CompletableFuture<Void> tell(WorkerInfo w, Message m) {
      Told t = new Told(w, m, new CompletableFuture<>());
      told.add(t);
      return t.answered();
    }

    @Override
    public void close() {}
  });

  private static MapOutputReady notice(int map) {
    return new MapOutputReady("app", 0, map, 0, HOLDER, List.of(new BlockSize(new BlockId("app", 0, map, 0, 1), 10)));
  }

  @Test
  void aWorkersFirstNotice_goesAtOnce_andThoseMadeWhileItIsUnanswered_goTogetherInOrder_onceItIs() {
    queues.tell(W1, notice(0));
    queues.tell(W1, notice(1));
    queues.tell(W1, notice(2));
    assertEquals(1, told.size(), "one message unanswered at a time");
    assertEquals(notice(0), told.get(0).message());

    told.get(0).answered().complete(null);
    assertEquals(2, told.size());
    MapOutputsReady batch = assertInstanceOf(MapOutputsReady.class, told.get(1).message());
    assertEquals(List.of(notice(1), notice(2)), batch.notices());

    told.get(1).answered().complete(null);
    assertEquals(2, told.size(), "nothing waited");
    assertEquals(0, queues.unanswered(), "no worker is left with a queue");
    queues.tell(W1, notice(3));
    assertEquals(notice(3), told.get(2).message(), "a later notice goes at once again");
  }

  @Test
  void workersWaitOnlyForTheirOwnUnansweredNotice() {
    queues.tell(W1, notice(0));
    queues.tell(W2, notice(0));
    assertEquals(List.of(W1, W2), told.stream().map(Told::to).toList());
  }

  @Test
  void aNoticeThatCouldNotBeSent_releasesWhatWaited_aloneWhenOne() {
    queues.tell(W1, notice(0));
    queues.tell(W1, notice(1));
    // a notifier completes normally when a worker could not be told; what waited goes next, as a single notice
    told.get(0).answered().complete(null);
    assertEquals(notice(1), told.get(1).message());
    told.get(1).answered().complete(null);
    assertEquals(0, queues.unanswered());
  }

  @Test
  void whatWaitedForAWorkerThatRegisteredAgainAtANewAddress_goesToTheNewAddress() {
    WorkerInfo moved = new WorkerInfo(W1.workerId(), "h1-new", 11);
    queues.tell(W1, notice(0));
    queues.tell(moved, notice(1));

    told.get(0).answered().complete(null);

    assertEquals(moved, told.get(1).to());
    assertEquals(notice(1), told.get(1).message());
  }
}
