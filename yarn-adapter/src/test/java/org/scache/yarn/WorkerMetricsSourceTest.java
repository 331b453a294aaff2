package org.scache.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.impl.MetricsSystemImpl;
import org.junit.jupiter.api.Test;

class WorkerMetricsSourceTest {

  @Test
  void workerStats_areReadThroughHadoopsMetricsSystemAndJmx() throws Exception {
    Map<String, Long> stats = new LinkedHashMap<>();
    stats.put("put.bytes", 4096L);
    stats.put("store.blocks", 7L);
    MetricsSystem system = new MetricsSystemImpl("NodeManager");
    system.init("NodeManager");
    try {
      system.register("ScacheWorkerTest", "SCache worker", new WorkerMetricsSource("worker-9", () -> stats));
      MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
      ObjectName bean = new ObjectName("Hadoop:service=NodeManager,name=ScacheWorkerTest");
      assertEquals(4096L, ((Number) jmx.getAttribute(bean, "PutBytes")).longValue());
      assertEquals(7L, ((Number) jmx.getAttribute(bean, "StoreBlocks")).longValue());
      assertEquals("worker-9", jmx.getAttribute(bean, "tag.WorkerId"));
    } finally {
      system.shutdown();
    }
  }

  @Test
  void statsKeys_becomeMetrics2Names() {
    assertEquals("ReadRemoteBytes", org.scache.worker.WorkerStatsCatalog.metrics2Name("read.remote.bytes"));
  }
}
