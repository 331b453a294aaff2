package org.scache.hadoop.appmaster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.junit.jupiter.api.Test;

class ReduceLocalityAsksTest {
  private static final Priority REDUCE = Priority.newInstance(10);
  private static final Priority MAP = Priority.newInstance(20);
  private static final Resource CONTAINER = Resource.newInstance(512, 1);

  private final ReduceLocalityAsks asks = new ReduceLocalityAsks(REDUCE);

  private static Set<ResourceRequest> outgoing(ResourceRequest... requests) {
    Set<ResourceRequest> set = new TreeSet<>(new ResourceRequest.ResourceRequestComparator());
    set.addAll(java.util.List.of(requests));
    return set;
  }

  private static ResourceRequest ask(Priority priority, String location, int count) {
    return ResourceRequest.newInstance(priority, location, CONTAINER, count);
  }

  @Test
  void whileHeld_theReducesRackAndOffSwitchAsksMayNotBeRelaxed_theirNodeAsksAndTheMapsAsksAreUntouched() {
    ResourceRequest node = ask(REDUCE, "node1:4001", 2);
    ResourceRequest rack = ask(REDUCE, "/default-rack", 2);
    ResourceRequest any = ask(REDUCE, ResourceRequest.ANY, 2);
    ResourceRequest mapAny = ask(MAP, ResourceRequest.ANY, 5);
    Set<ResourceRequest> out = outgoing(node, rack, any, mapAny);

    asks.apply(out, true);

    assertEquals(4, out.size());
    assertTrue(node.getRelaxLocality());
    assertFalse(rack.getRelaxLocality());
    assertFalse(any.getRelaxLocality());
    assertTrue(mapAny.getRelaxLocality());
  }

  @Test
  void relaxingSendsTheRackAndOffSwitchAsksAgain_thoughTheirCountsDidNotChange() {
    ResourceRequest rack = ask(REDUCE, "/default-rack", 2);
    ResourceRequest any = ask(REDUCE, ResourceRequest.ANY, 2);
    asks.apply(outgoing(ask(REDUCE, "node1:4001", 2), rack, any), true);

    Set<ResourceRequest> unchanged = outgoing();
    asks.apply(unchanged, true);
    assertTrue(unchanged.isEmpty(), "nothing changed, nothing sent");

    Set<ResourceRequest> relaxed = outgoing();
    asks.apply(relaxed, false);
    assertEquals(Set.of("/default-rack", ResourceRequest.ANY),
        relaxed.stream().map(ResourceRequest::getResourceName).collect(java.util.stream.Collectors.toSet()));
    assertTrue(rack.getRelaxLocality());
    assertTrue(any.getRelaxLocality());
  }

  @Test
  void anAskTheAllocatorReplacedIsTheOneHeld() {
    asks.apply(outgoing(ask(REDUCE, ResourceRequest.ANY, 1)), true);
    ResourceRequest newer = ask(REDUCE, ResourceRequest.ANY, 3);
    Set<ResourceRequest> out = outgoing(newer);

    asks.apply(out, true);

    assertEquals(1, out.size());
    assertFalse(newer.getRelaxLocality());
    assertEquals(3, out.iterator().next().getNumContainers());

    Set<ResourceRequest> relaxed = outgoing();
    asks.apply(relaxed, false);
    assertEquals(1, relaxed.size());
    assertTrue(relaxed.iterator().next() == newer, "the newer ask is sent again, relaxed");
    assertTrue(newer.getRelaxLocality());
  }
}
