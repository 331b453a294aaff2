package org.scache.worker.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryPoolTest {
  @TempDir
  Path dir;

  @Test
  void staleFilesOfDeadProcesses_areRemovedAtStart_liveOnesKept() throws Exception {
    Path stale = Files.createFile(dir.resolve("scache-old-worker-" + Integer.MAX_VALUE + "-0.mem"));
    Path live = Files.createFile(dir.resolve("scache-other-" + ProcessHandle.current().pid() + "-7.mem"));
    Path unrelated = Files.createFile(dir.resolve("scache-notes.mem"));
    MemoryPool.removeStaleFiles(dir);
    assertTrue(Files.notExists(stale));
    assertTrue(Files.exists(live));
    assertTrue(Files.exists(unrelated));
  }
}
