package org.scache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.scache.common.protocol.Status;

/** {@link ScacheException#from} finds the status inside wrapped failures. */
class ScacheExceptionTest {

  @Test
  void from_wrappedScacheException_returnsTheSameException() {
    ScacheException e = new ScacheException(Status.STORE_FULL, "full");
    assertSame(e, ScacheException.from(new CompletionException(new ExecutionException(e))));
    assertSame(e, ScacheException.from(e));
    assertTrue(e.getMessage().startsWith("STORE_FULL: "));
  }

  @Test
  void aStatusPassedOn_isNotRepeatedInTheMessage() {
    ScacheException worker = new ScacheException(Status.BLOCK_NOT_FOUND, "a/shuffle_0/map_1.0/reduce_2 is gone");
    // a client wraps the detail it was answered with, and a relay wraps that again
    ScacheException client = new ScacheException(worker.status(), worker.getMessage());
    ScacheException relayed = new ScacheException(client.status(), client.getMessage());
    assertEquals("BLOCK_NOT_FOUND: a/shuffle_0/map_1.0/reduce_2 is gone", relayed.getMessage());
    assertEquals("a/shuffle_0/map_1.0/reduce_2 is gone", relayed.detail());
  }

  @Test
  void from_ioException_isConnectionFailed() {
    IOException io = new ConnectException("refused");
    ScacheException e = ScacheException.from(new ExecutionException(io));
    assertEquals(Status.CONNECTION_FAILED, e.status());
    assertSame(io, e.getCause());
  }

  @Test
  void from_otherThrowable_isInternalError() {
    ScacheException e = ScacheException.from(new CompletionException(new IllegalStateException("oops")));
    assertEquals(Status.INTERNAL_ERROR, e.status());
    assertTrue(e.getMessage().contains("oops"));
  }

  @Test
  void ids_invalidValues_areRejected() {
    assertThrows(IllegalArgumentException.class, () -> new BlockId("", 0, 0, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new BlockId("a", 0, -1, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new WorkerInfo("w", "h", 0));
    assertThrows(IllegalArgumentException.class, () -> new ShuffleKey("a", -1));
    assertEquals(new ShuffleKey("a", 3), new BlockId("a", 3, 1, 0, 2).shuffle());
    assertEquals("h:7", new WorkerInfo("w", "h", 7).address());
  }
}
