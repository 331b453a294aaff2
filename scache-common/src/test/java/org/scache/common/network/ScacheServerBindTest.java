package org.scache.common.network;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.BindException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scache.common.protocol.GetWorkerStats;
import org.scache.common.protocol.WorkerStats;
import org.scache.common.testing.EchoishHandler;
import org.scache.common.testing.NettyLeakExtension;

/** A server bound before it serves: its port is taken at once, and a connection made meanwhile waits for it. */
@ExtendWith(NettyLeakExtension.class)
@Timeout(60)
class ScacheServerBindTest {
  private static final TransportSettings SETTINGS =
      new TransportSettings(1 << 20, 64L << 20, Duration.ofSeconds(2), 2);

  @Test
  void aBoundServer_holdsItsPort_andAnswersARequestMadeBeforeItServed_onceItServes() throws Exception {
    try (ScacheServer server = ScacheServer.bind("test-server", "127.0.0.1", 0, SETTINGS);
        ConnectionPool pool = new ConnectionPool(SETTINGS, "test-client")) {
      assertThrows(BindException.class, () -> ScacheServer.bind("other", "127.0.0.1", server.port(), SETTINGS)
          .close(), "the port is taken before the server serves");

      CompletableFuture<Reply> answer = pool.get("127.0.0.1", server.port())
          .thenCompose(c -> c.call(new GetWorkerStats(), Optional.empty(), Duration.ofSeconds(20)));
      Thread.sleep(300);
      assertFalse(answer.isDone(), "nothing answers before the server serves");

      server.serve(null, () -> new EchoishHandler(new CountDownLatch(1)), RequestObserver.NONE);

      Reply r = answer.get(10, SECONDS);
      assertEquals(new WorkerStats(Map.of("signed", 0L)), r.as(WorkerStats.class));
      r.release();
    }
  }
}
