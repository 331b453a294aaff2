package org.scache.hadoop.appmaster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.junit.jupiter.api.Test;
import org.scache.client.ScacheClient;
import org.scache.common.ScacheException;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.testing.ManualClock;
import org.scache.yarn.NodeWorkerAddress;

class ReducePlacementTest {
  private static final WorkerInfo W1 = new WorkerInfo("127.0.0.1:7001", "127.0.0.1", 7001);
  private static final WorkerInfo W2 = new WorkerInfo("127.0.0.1:7002", "127.0.0.1", 7002);
  private static final WorkerInfo W3 = new WorkerInfo("127.0.0.1:7003", "127.0.0.1", 7003);
  private static final NodeId NM1 = NodeId.newInstance("node", 4001);
  private static final NodeId NM2 = NodeId.newInstance("node", 4002);
  private static final NodeId NM3 = NodeId.newInstance("node", 4003);

  private static final boolean MAPS_DONE = false;
  private static final boolean MAPS_RUNNING = true;

  private final ManualClock clock = new ManualClock();
  private final ScacheClient client = mock(ScacheClient.class);
  private final ScheduleWatcher watcher = new ScheduleWatcher(client, 0, clock, Duration.ofSeconds(5));
  private final NodeWorkers nodes = new NodeWorkers("scache", false);
  private final ReducePlacement placement = new ReducePlacement(watcher, nodes, clock, 10_000, 1_000_000,
      30_000);

  /** Reduce 0 on W1, 1 and 2 on W2, 3 on W3; NM1..NM3 run W1..W3, all on one host name. */
  private void placed() {
    doReturn(new ShufflePlacement("app", 0, "heuristic-minheap", List.of(
        new ReduceAssignment(0, W1, 0), new ReduceAssignment(1, W2, 0),
        new ReduceAssignment(2, W2, 1), new ReduceAssignment(3, W3, 0)))).when(client).getScheduleResult(0);
    watcher.poll();
    nodes.recordServiceMetadata(NM1, Map.of("scache", NodeWorkerAddress.encode(W1.address())));
    nodes.recordServiceMetadata(NM2, Map.of("scache", NodeWorkerAddress.encode(W2.address())));
    nodes.recordServiceMetadata(NM3, Map.of("scache", NodeWorkerAddress.encode(W3.address())));
  }

  private static List<ReducePlacement.Pending<String>> pending(int... reduces) {
    return java.util.Arrays.stream(reduces).mapToObj(r -> new ReducePlacement.Pending<>("r" + r, r)).toList();
  }

  @Test
  void eachContainerRunsTheReducePlacedOnItsNodeManagerAmongNodeManagersSharingAHost() {
    placed();
    List<ReducePlacement.Choice> choices = placement.assign(List.of(NM3, NM2, NM1, NM2), pending(0, 1, 2, 3),
        MAPS_DONE);

    assertEquals(List.of(new ReducePlacement.Choice(3, true), new ReducePlacement.Choice(1, true),
        new ReducePlacement.Choice(0, true), new ReducePlacement.Choice(2, true)), choices);
    assertEquals(4, placement.onScheduledNode());
    assertEquals(0, placement.elsewhere());
  }

  @Test
  void aContainerOnANodeWithoutPendingReducesIsReturnedUntilTheDelayThenTakenByTheLongestWaiting() {
    placed();
    assertEquals(List.of(ReducePlacement.Choice.RETURN), placement.assign(List.of(NM1), pending(1, 3), MAPS_DONE));

    clock.advance(Duration.ofMillis(9_999));
    assertEquals(List.of(ReducePlacement.Choice.RETURN), placement.assign(List.of(NM1), pending(1, 3), MAPS_DONE));

    clock.advance(Duration.ofMillis(1));
    assertEquals(List.of(new ReducePlacement.Choice(0, false), new ReducePlacement.Choice(1, true)),
        placement.assign(List.of(NM1, NM3), pending(1, 3), MAPS_DONE));
    assertEquals(1, placement.elsewhere());
  }

  @Test
  void aReduceWaitsForItsNodeNoLongerThanReadingItsPredictedInputRemotely() {
    // 1 MB/s: reduce 0 has no input, reduce 1 reads 2.5 s remotely, reduce 2 longer than the delay
    doReturn(new ShufflePlacement("app", 0, "heuristic-minheap", List.of(new ReduceAssignment(0, W1, 0, 0),
        new ReduceAssignment(1, W1, 1, 2_500_000), new ReduceAssignment(2, W1, 2, 50_000_000),
        new ReduceAssignment(3, W1, 3)))).when(client).getScheduleResult(0);
    watcher.poll();
    nodes.recordServiceMetadata(NM1, Map.of("scache", NodeWorkerAddress.encode(W1.address())));
    nodes.recordServiceMetadata(NM2, Map.of("scache", NodeWorkerAddress.encode(W2.address())));
    assertEquals(0, placement.waitMillis(0));
    assertEquals(2_500, placement.waitMillis(1));
    assertEquals(10_000, placement.waitMillis(2));
    assertEquals(10_000, placement.waitMillis(3), "no predicted size: the whole delay");

    assertEquals(List.of(new ReducePlacement.Choice(0, false)), placement.assign(List.of(NM2), pending(0, 1, 2),
        MAPS_DONE),
        "the reduce without input takes the first container");
    assertEquals(List.of(ReducePlacement.Choice.RETURN), placement.assign(List.of(NM2), pending(1, 2), MAPS_DONE));
    clock.advance(Duration.ofMillis(2_500));
    assertEquals(List.of(new ReducePlacement.Choice(0, false), ReducePlacement.Choice.RETURN),
        placement.assign(List.of(NM2, NM2), pending(1, 2), MAPS_DONE));
  }

  /** Reduces 0 and 1 on W1, 2 on W2, with these predicted inputs (read remotely at 1 MB/s). */
  private void placedOnTwoNodes(long input0, long input1, long input2) {
    doReturn(new ShufflePlacement("app", 0, "heuristic-minheap", List.of(new ReduceAssignment(0, W1, 0, input0),
        new ReduceAssignment(1, W1, 1, input1), new ReduceAssignment(2, W2, 0, input2)))).when(client)
        .getScheduleResult(0);
    watcher.poll();
    nodes.recordServiceMetadata(NM1, Map.of("scache", NodeWorkerAddress.encode(W1.address())));
    nodes.recordServiceMetadata(NM2, Map.of("scache", NodeWorkerAddress.encode(W2.address())));
  }

  /**
   * Reduce 0 runs on NM1 and reduce 2 on NM2 since t = 0, while reduce 1 (12 MB, placed on W1, 12 s to read
   * remotely) waits; now t = 20 s.
   */
  private void reduces0And2Running20SecondsWhileReduce1Waits() {
    placedOnTwoNodes(50_000_000, 12_000_000, 50_000_000);
    placement.assign(List.of(NM1, NM2), pending(0, 1, 2), MAPS_DONE);
    placement.reduceStarted("c0", NM1);
    placement.reduceStarted("c2", NM2);
    clock.advance(Duration.ofSeconds(20));
  }

  @Test
  void aReduceWhoseNodeRunsAnEarlierRound_waitsUntilThatNodeIsExpectedToFreeAContainer_thenAsLongAsItsRemoteRead() {
    placedOnTwoNodes(50_000_000, 12_000_000, 50_000_000);
    assertEquals(List.of(new ReducePlacement.Choice(0, true), new ReducePlacement.Choice(2, true)),
        placement.assign(List.of(NM1, NM2), pending(0, 1, 2), MAPS_DONE));
    placement.reduceStarted("c0", NM1);
    placement.reduceStarted("c2", NM2);
    clock.advance(Duration.ofSeconds(20));
    placement.containerEnded("c2");

    // reduce 1 has waited 20 s, twice the delay, but its node's reduce, started with c2's, should end now
    assertEquals(List.of(ReducePlacement.Choice.RETURN), placement.assign(List.of(NM2), pending(1), MAPS_DONE));
    clock.advance(Duration.ofMillis(11_999));
    assertEquals(List.of(ReducePlacement.Choice.RETURN), placement.assign(List.of(NM2), pending(1), MAPS_DONE),
        "past the delay, but not yet as long after the expected end as its 12 MB take to read remotely");
    clock.advance(Duration.ofMillis(1));
    assertEquals(List.of(new ReducePlacement.Choice(0, false)), placement.assign(List.of(NM2), pending(1), MAPS_DONE),
        "never stuck: waiting longer would cost more than the remote read");
  }

  @Test
  void aReduceWhoseNodeJustFreedAContainer_waitsForIt_thoughTheNodeRunsNoneOfTheJobsReducesAnyMore() {
    reduces0And2Running20SecondsWhileReduce1Waits();
    // both end in one heartbeat, whose containers on NM2 come before the one NM1 just freed
    placement.containerEnded("c0");
    placement.containerEnded("c2");

    assertEquals(List.of(ReducePlacement.Choice.RETURN), placement.assign(List.of(NM2), pending(1), MAPS_DONE));
    clock.advance(Duration.ofMillis(11_999));
    assertEquals(List.of(ReducePlacement.Choice.RETURN), placement.assign(List.of(NM2), pending(1), MAPS_DONE));
    clock.advance(Duration.ofMillis(1));
    assertEquals(List.of(new ReducePlacement.Choice(0, false)), placement.assign(List.of(NM2), pending(1), MAPS_DONE));
  }

  @Test
  void aReduceWaitsForTheNextOfItsNodesReducesToEnd_whenTheEarliestIsOverdue() {
    reduces0And2Running20SecondsWhileReduce1Waits();
    placement.containerEnded("c2");
    placement.reduceStarted("c3", NM1);

    // c0 should have ended at 20 s and still runs; c3 should end at 40 s
    clock.advance(Duration.ofSeconds(13));
    assertEquals(List.of(ReducePlacement.Choice.RETURN), placement.assign(List.of(NM2), pending(1), MAPS_DONE));
    clock.advance(Duration.ofSeconds(19));
    assertEquals(List.of(new ReducePlacement.Choice(0, false)), placement.assign(List.of(NM2), pending(1), MAPS_DONE),
        "c3 is as late as the remote read would take");
  }

  @Test
  void aReduceDoesNotWaitForABusyNodeExpectedToFreeLaterThanItsRemoteReadTakes() {
    placedOnTwoNodes(50_000_000, 2_500_000, 50_000_000);
    placement.assign(List.of(NM2), pending(1, 2), MAPS_DONE);
    placement.reduceStarted("c2", NM2);
    clock.advance(Duration.ofSeconds(15));
    assertEquals(List.of(new ReducePlacement.Choice(0, true)), placement.assign(List.of(NM1), pending(0, 1),
        MAPS_DONE));
    placement.reduceStarted("c0", NM1);
    clock.advance(Duration.ofSeconds(5));
    placement.containerEnded("c2");

    // W1 should free at 15 + 20 s, 15 s from now; reduce 1 reads its 2.5 MB remotely in 2.5 s
    assertEquals(List.of(new ReducePlacement.Choice(0, false)), placement.assign(List.of(NM2), pending(1), MAPS_DONE));
  }

  @Test
  void aBusyNodeIsNotWaitedForBeforeAnyReduceOfTheJobHasFinished() {
    placedOnTwoNodes(50_000_000, 50_000_000, 50_000_000);
    placement.assign(List.of(NM1), pending(0, 1, 2), MAPS_DONE);
    placement.reduceStarted("c0", NM1);
    placement.containerEnded("a container that ran no reduce");
    clock.advance(Duration.ofSeconds(10));
    assertEquals(List.of(new ReducePlacement.Choice(0, false)), placement.assign(List.of(NM2), pending(1), MAPS_DONE),
        "no run to expect an end from: the usual delay");
  }

  @Test
  void whileTheMapsRunAReduceWaitsForItsNodeWithoutCountingTheTime() {
    placed();
    clock.advance(Duration.ofSeconds(60));
    assertEquals(List.of(ReducePlacement.Choice.RETURN), placement.assign(List.of(NM1), pending(1, 3), MAPS_RUNNING));
    clock.advance(Duration.ofSeconds(60));
    assertEquals(List.of(ReducePlacement.Choice.RETURN), placement.assign(List.of(NM1), pending(1, 3), MAPS_RUNNING));

    clock.advance(Duration.ofMillis(9_999));
    assertEquals(List.of(ReducePlacement.Choice.RETURN), placement.assign(List.of(NM1), pending(1, 3), MAPS_DONE),
        "the delay runs from the end of the maps");
    clock.advance(Duration.ofMillis(1));
    assertEquals(List.of(new ReducePlacement.Choice(0, false)), placement.assign(List.of(NM1), pending(1, 3),
        MAPS_DONE));
  }

  private static List<String> requested(String... nodes) {
    return java.util.Arrays.asList(nodes);
  }

  @Test
  void theSchedulerIsHeldToThePlacedNodesWhileTheMapsRunThenUntilAReduceHasWaitedItsDelay() {
    placed();
    assertTrue(placement.holdsToPlacedNodes(pending(1, 3), requested("node", "node"), MAPS_RUNNING));
    clock.advance(Duration.ofSeconds(60));
    assertTrue(placement.holdsToPlacedNodes(pending(1, 3), requested("node", "node"), MAPS_RUNNING),
        "no waiting is counted while the maps run");

    clock.advance(Duration.ofMillis(9_999));
    assertTrue(placement.holdsToPlacedNodes(pending(1, 3), requested("node", "node"), MAPS_DONE));
    clock.advance(Duration.ofMillis(1));
    assertFalse(placement.holdsToPlacedNodes(pending(1, 3), requested("node", "node"), MAPS_DONE),
        "a reduce has waited the placement delay: containers anywhere");
    assertEquals(List.of(new ReducePlacement.Choice(0, false)), placement.assign(List.of(NM1), pending(1, 3),
        MAPS_DONE), "and the next container offered runs it");
    assertFalse(placement.holdsToPlacedNodes(pending(3), requested("node"), MAPS_DONE),
        "reduce 3 has waited as long");
  }

  @Test
  void theSchedulerIsNotHeldForAReduceWithoutLocality_onAnUnusableNode_orRequestedByAnotherName() {
    placed();
    assertFalse(placement.holdsToPlacedNodes(pending(1, 3), requested("node", null), MAPS_RUNNING),
        "a request without a node (an earlier attempt failed)");
    assertFalse(placement.holdsToPlacedNodes(pending(1), requested("elsewhere"), MAPS_RUNNING),
        "a request naming no NodeManager of the job");
    assertFalse(placement.holdsToPlacedNodes(pending(), requested(), MAPS_RUNNING), "nothing pending");
    placement.nodeUnusable(NM3);
    assertFalse(placement.holdsToPlacedNodes(pending(1, 3), requested("node", "node"), MAPS_RUNNING),
        "reduce 3's node is lost");
  }

  @Test
  void whereNodesAreNamedByHostAndPort_theSchedulerIsHeldOnlyToNodeManagersTheJobHasLearned() {
    NodeWorkers byPort = new NodeWorkers("scache", true);
    ReducePlacement p = new ReducePlacement(watcher, byPort, clock, 10_000, 1_000_000, 30_000);
    placed();
    byPort.recordServiceMetadata(NM1, Map.of("scache", NodeWorkerAddress.encode(W1.address())));
    assertTrue(p.holdsToPlacedNodes(pending(0), requested("node:4001"), MAPS_RUNNING));
    assertFalse(p.holdsToPlacedNodes(pending(0, 1), requested("node:4001", "127.0.0.1"), MAPS_RUNNING),
        "reduce 1 was requested on its worker's host, which names no NodeManager here");
  }

  @Test
  void aWorkersHostNamesItsNodeUnlessTheLearnedNodeManagersSayWorkersAdvertiseOtherHosts() {
    WorkerInfo a = new WorkerInfo("a:7000", "host-a", 7000);
    NodeWorkers byHost = new NodeWorkers("scache", false);
    byHost.recordServiceMetadata(NodeId.newInstance("host-b", 45454), Map.of("scache",
        NodeWorkerAddress.encode("host-b:7000")));
    assertTrue(byHost.isNodeName(a.host()), "workers advertise their NodeManagers' hosts here");

    nodes.recordServiceMetadata(NM1, Map.of("scache", NodeWorkerAddress.encode(W1.address())));
    assertTrue(nodes.isNodeName("node"));
    assertFalse(nodes.isNodeName(W2.host()), "NodeManager node runs a worker advertising 127.0.0.1");
  }

  @Test
  void aReducePlacedOnANodeYarnReportsUnusable_takesTheFirstContainerWithoutWaiting() {
    placed();
    assertEquals(1, placement.hostsFor(3).length);

    placement.nodeUnusable(NM3);

    assertEquals(0, placement.hostsFor(3).length, "requested without locality");
    assertEquals(List.of(new ReducePlacement.Choice(1, false)), placement.assign(List.of(NM1), pending(1, 3),
        MAPS_DONE));
    assertEquals(1, placement.elsewhere());
  }

  @Test
  void aNodeManagerNeverSeenIsNotGuessedWhenEveryWorkerOfItsHostIsMatched() {
    placed();
    NodeId unseen = NodeId.newInstance("node", 4999);
    assertTrue(nodes.workerOn(unseen, List.of(W1, W2, W3)).isEmpty());
  }

  @Test
  void theOnlyUnlearnedNodeManagerOfASharedHostRunsTheOnlyUnmatchedWorker() {
    nodes.recordServiceMetadata(NM1, Map.of("scache", NodeWorkerAddress.encode(W1.address())));
    nodes.recordServiceMetadata(NM2, Map.of("scache", NodeWorkerAddress.encode(W2.address())));
    assertEquals(java.util.Optional.of(W3), nodes.workerOn(NM3, List.of(W1, W2, W3)));
  }

  @Test
  void theApplicationMastersOwnNodeManagerIsKnownFromItsEnvironment() {
    nodes.recordOwnNode(Map.of("NM_HOST", "node", "NM_PORT", "4002", "NM_AUX_SERVICE_scache",
        java.util.Base64.getEncoder().encodeToString(W2.address().getBytes(java.nio.charset.StandardCharsets.UTF_8))));
    assertEquals(java.util.Optional.of(W2), nodes.workerOn(NM2, List.of(W1, W2, W3)));
  }

  @Test
  void twoUnlearnedNodeManagersOfASharedHostAreNotToldApartByElimination() {
    WorkerInfo w4 = new WorkerInfo("127.0.0.1:7004", "127.0.0.1", 7004);
    nodes.recordServiceMetadata(NM1, Map.of("scache", NodeWorkerAddress.encode(W1.address())));
    assertTrue(nodes.workerOn(NM2, List.of(W1, W2, W3, w4)).isEmpty(), "two workers unmatched");
    nodes.recordServiceMetadata(NM3, Map.of("scache", NodeWorkerAddress.encode(W3.address())));
    NodeId nm4 = NodeId.newInstance("node", 4004);
    assertTrue(nodes.workerOn(nm4, List.of(W1, W2, W3, w4)).isEmpty(), "NM2 and NM4 both unlearned");
    nodes.recordServiceMetadata(NM2, Map.of("scache", NodeWorkerAddress.encode(W2.address())));
    assertEquals(java.util.Optional.of(w4), nodes.workerOn(nm4, List.of(W1, W2, W3, w4)));
  }

  @Test
  void onAClusterWithOneNodeManagerPerHostTheHostNameIdentifiesTheWorker() {
    WorkerInfo a = new WorkerInfo("a:7000", "host-a", 7000);
    WorkerInfo b = new WorkerInfo("b:7000", "host-b", 7000);
    assertEquals(java.util.Optional.of(b), nodes.workerOn(NodeId.newInstance("host-b", 45454), List.of(a, b)));
    assertEquals("host-a", nodes.nodeNameOf(a));
  }

  @Test
  void requestsNameTheNodeManagersHostOnceLearned() {
    placed();
    assertArrayEquals(new String[] {"node"}, placement.hostsFor(2));
    assertArrayEquals(new String[0], placement.hostsFor(7));
  }

  @Test
  void whereTheSchedulerNamesNodesByHostAndPortRequestsNameTheNodeManagerItself() {
    NodeWorkers byPort = new NodeWorkers("scache", true);
    assertEquals("127.0.0.1", byPort.nodeNameOf(W1), "its NodeManager not known yet");
    byPort.recordServiceMetadata(NodeId.newInstance("localhost", 4711), Map.of("scache",
        NodeWorkerAddress.encode(W1.address())));
    assertEquals("localhost:4711", byPort.nodeNameOf(W1));
  }

  @Test
  void reduceRequestsAreHeldUntilThePlacementExists() {
    when(client.getScheduleResult(0)).thenThrow(new ScacheException(Status.NOT_READY, "not yet"));
    watcher.poll();
    assertTrue(placement.holdsRequests(3, 10));
    placed();
    assertFalse(placement.holdsRequests(3, 10));
    assertTrue(placement.placing());
  }

  @Test
  void reduceRequestsAreReleasedUnplacedWhenTheMasterStopsAnswering() {
    when(client.getScheduleResult(0)).thenThrow(new ScacheException(Status.CONNECTION_FAILED, "refused"));
    watcher.poll();
    assertTrue(placement.holdsRequests(3, 10));
    clock.advance(Duration.ofMillis(5_000));
    watcher.poll();
    assertTrue(watcher.gaveUp().isPresent());
    assertFalse(placement.holdsRequests(3, 10));
    assertFalse(placement.placing());
  }

  @Test
  void reduceRequestsAreReleasedUnplacedWhenNoPlacementComesAfterTheLastMap() {
    when(client.getScheduleResult(0)).thenThrow(new ScacheException(Status.NOT_READY, "not yet"));
    watcher.poll();
    assertTrue(placement.holdsRequests(10, 10));
    clock.advance(Duration.ofMillis(29_999));
    assertTrue(placement.holdsRequests(10, 10));
    clock.advance(Duration.ofMillis(1));
    assertFalse(placement.holdsRequests(10, 10));
  }

  @Test
  void metadataWithoutTheServiceTeachesNothing() {
    nodes.recordServiceMetadata(NM1, Map.of("mapreduce_shuffle", ByteBuffer.allocate(4)));
    assertTrue(nodes.workerOn(NM1, List.of(W1, W2)).isEmpty());
  }
}
