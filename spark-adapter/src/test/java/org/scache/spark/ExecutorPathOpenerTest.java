package org.scache.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.scache.client.BlockBuffers;
import org.scache.client.ScacheClient;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;

class ExecutorPathOpenerTest {
  private final ScacheClient client = mock(ScacheClient.class);
  private final BlockBuffers chunks = new BlockBuffers(1 << 20);
  private final List<Duration> pauses = new ArrayList<>();
  private final ExecutorPathOpener opener = new ExecutorPathOpener(chunks, () -> client, pauses::add);

  private static CompletableFuture<Void> refused(Status status) {
    return CompletableFuture.failedFuture(new ScacheException(status, "refused"));
  }

  @Test
  void whileTheWorkerDoesNotKnowTheApplication_triesAgainLaterAndLater_untilThePathOpens() {
    when(client.openWorkerPath()).thenReturn(refused(Status.UNKNOWN_APPLICATION))
        .thenReturn(refused(Status.UNKNOWN_APPLICATION)).thenReturn(CompletableFuture.completedFuture(null));

    opener.run();

    verify(client, times(3)).openWorkerPath();
    assertEquals(List.of(Duration.ofMillis(100), Duration.ofMillis(200)), pauses);
  }

  @Test
  void anApplicationNeverRegistered_costsSevenTries_andTheOpenerGivesUp() {
    when(client.openWorkerPath()).thenReturn(refused(Status.UNKNOWN_APPLICATION));

    opener.run();

    verify(client, times(ExecutorPathOpener.RETRIES + 1)).openWorkerPath();
    assertEquals(6_300, pauses.stream().mapToLong(Duration::toMillis).sum(), "6.3 s of pauses in all");
  }

  @Test
  void anyOtherRefusal_isLeftToTheFirstTask_withoutTryingAgain() {
    when(client.openWorkerPath()).thenReturn(refused(Status.AUTH_FAILED));

    opener.run();

    verify(client, times(1)).openWorkerPath();
    assertEquals(List.of(), pauses);
  }
}
