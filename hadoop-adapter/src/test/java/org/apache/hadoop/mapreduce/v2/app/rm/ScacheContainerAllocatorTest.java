package org.apache.hadoop.mapreduce.v2.app.rm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.yarn.util.RackResolver;
import org.junit.jupiter.api.Test;

class ScacheContainerAllocatorTest {
  @Test
  void aNodeNameWithAPort_isResolvedByItsHost() {
    assertEquals("node-1", ScacheContainerAllocator.hostOf("node-1:45454"));
    assertEquals("node-1", ScacheContainerAllocator.hostOf("node-1"));
    assertEquals("fe80::1", ScacheContainerAllocator.hostOf("fe80::1"));
  }

  @Test
  void aPlacedReduceAsksForItsNodesRackToo() {
    RackResolver.init(new Configuration());
    assertArrayEquals(new String[] {NetworkTopology.DEFAULT_RACK},
        ScacheContainerAllocator.racksOf(new String[] {"127.0.0.1", "localhost:45454"}));
  }
}
