package org.scache.worker.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.scache.common.testing.ScriptedConnections.answer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.scache.common.BlockId;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.auth.Credentials;
import org.scache.common.ha.Locator;
import org.scache.common.network.Reply;
import org.scache.common.protocol.Ack;
import org.scache.common.protocol.AppSecret;
import org.scache.common.protocol.BlockLocations;
import org.scache.common.protocol.FetchAppSecret;
import org.scache.common.protocol.LocateBlocks;
import org.scache.common.protocol.MapFinished;
import org.scache.common.protocol.Message;
import org.scache.common.shuffle.BlockLocation;
import org.scache.common.testing.ScriptedConnections;
import org.scache.worker.cluster.BlockLocator;
import org.scache.worker.cluster.LocatedBlocks;

class MasterCallsTest {
  private static final WorkerInfo SELF = new WorkerInfo("w-self", "self", 1);
  private static final String MASTER = "master:7000";

  private final ScriptedConnections connections = new ScriptedConnections(MasterCallsTest::master);
  private final MasterCalls calls = new MasterCalls(Locator.fixed(MASTER), connections,
      Credentials.cluster("c".getBytes(StandardCharsets.UTF_8)), Duration.ofSeconds(5));

  private static Reply master(String peer, Message m) {
    if (m instanceof LocateBlocks l) {
      return answer(new BlockLocations(2, 1, List.of(new BlockLocation(
          new BlockId(l.appId(), l.shuffleId(), 0, 0, l.reduceId()), 10, SELF))));
    }
    if (m instanceof FetchAppSecret f) {
      return answer(new AppSecret(("secret-" + f.appId()).getBytes(StandardCharsets.UTF_8)));
    }
    return answer(new Ack());
  }

  @AfterEach
  void close() {
    calls.close();
  }

  @Test
  void locate_answersWithTheMastersLocationsAsDomainValues() {
    LocatedBlocks found = calls.locate(new ShuffleKey("app", 0), 5, BlockLocator.ALL_MAPS).join();

    assertEquals(new LocatedBlocks(2, 1, List.of(new BlockLocation(new BlockId("app", 0, 0, 0, 5), 10, SELF))),
        found);
    assertEquals(false, found.complete());
    assertEquals(List.of(new LocateBlocks("app", 0, 5, BlockLocator.ALL_MAPS)),
        connections.sentOfType(LocateBlocks.class));
  }

  @Test
  void fetchSecret_answersTheApplicationsSecret() {
    assertEquals("secret-app-9", new String(calls.fetchSecret("app-9").join(), StandardCharsets.UTF_8));
  }

  @Test
  void aMapFinished_isSentAsTheMastersMessage_signedAsTheCluster() {
    calls.mapFinished(new ShuffleKey("app", 3), 4, 1).join();

    assertEquals(List.of(new MapFinished("app", 3, 4, 1)), connections.sentOfType(MapFinished.class));
    assertTrue(connections.sent().stream().allMatch(s -> s.peer().equals(MASTER)
        && s.credentials().map(Credentials::isCluster).orElse(false)), () -> "sent: " + connections.sent());
  }
}
