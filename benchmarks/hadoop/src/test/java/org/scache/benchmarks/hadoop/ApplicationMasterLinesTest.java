package org.scache.benchmarks.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApplicationMasterLinesTest {
  @TempDir
  Path nmLogs;

  @Test
  void keepsOnlyTheApplicationMastersScacheLinesApplicationByApplication() throws Exception {
    write("node2/application_1_0002/container_1_0002_01_000001/syslog",
        "2026-12-02 12:31:33,916 INFO [main] org.scache.hadoop.ScacheJob: job application_1_0002 shuffles through "
            + "SCache\n"
            + "2026-12-02 12:31:34,000 INFO [main] org.apache.hadoop.mapreduce.v2.app.MRAppMaster: Created "
                + "MRAppMaster\n");
    write("node1/application_1_0001/container_1_0001_01_000001/syslog",
        "2026-12-02 12:30:00,000 INFO [main] org.apache.hadoop.mapreduce.v2.app.MRAppMaster: Hadoop's shuffle only\n");
    write("node1/application_1_0002/container_1_0002_01_000003/syslog",
        "2026-12-02 12:32:41,754 INFO [main] org.scache.hadoop.reduce.ScacheShuffleConsumerPlugin: a reduce task\n");

    assertEquals("== application_1_0002\n"
        + "2026-12-02 12:31:33,916 INFO [main] org.scache.hadoop.ScacheJob: job application_1_0002 shuffles through "
            + "SCache\n",
        ApplicationMasterLines.collect(nmLogs));
  }

  @Test
  void aClusterWithoutLogsGivesNothing() throws Exception {
    assertEquals("", ApplicationMasterLines.collect(nmLogs.resolve("absent")));
  }

  private void write(String path, String text) throws Exception {
    Path file = nmLogs.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
