package org.scache.common.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What makes a leader record followed: the cluster secret's proof, for the node's path and owning session. */
class LeaderRecordTest {
  private static final byte[] CLUSTER = "cluster".getBytes(StandardCharsets.UTF_8);
  private static final String LEADER = "/scache/leader";
  private static final long SESSION = 0x1000_0cce_5610_0001L;

  private static void assertRefused(LeaderRecord.Verdict v, String why) {
    assertEquals(Optional.empty(), v.address());
    assertTrue(v.refusal().contains(why), v.refusal());
  }

  @Test
  void aRecordSignedWithTheClusterSecret_inANodeOfItsSession_isFollowed() {
    byte[] record = LeaderRecord.signed(LEADER, "m1:7077", SESSION, CLUSTER);
    assertEquals(Optional.of("m1:7077"), LeaderRecord.verify(LEADER, record, SESSION, CLUSTER).address());
    assertEquals("m1:7077", LeaderRecord.address(record));
  }

  /** The node's form, computed apart from this code (HMAC-SHA256 of the documented input); change it deliberately. */
  @Test
  void theRecordsForm_isPinned() {
    assertEquals("m1:7077\nsession 10000cce56100001\nproof jvkvMB-iboKHyrAupT93LKMAaVZDi63pQLUDKoHCGjM",
        new String(LeaderRecord.signed(LEADER, "m1:7077", SESSION, CLUSTER), StandardCharsets.UTF_8));
  }

  @Test
  void aRecordSignedWithAnotherSecret_isRefused() {
    byte[] record = LeaderRecord.signed(LEADER, "evil:1", SESSION, "other".getBytes(StandardCharsets.UTF_8));
    assertRefused(LeaderRecord.verify(LEADER, record, SESSION, CLUSTER), "not made with this cluster's secret");
  }

  @Test
  void aGenuineRecordCopiedIntoANodeOfAnotherSession_isRefused() {
    byte[] record = LeaderRecord.signed(LEADER, "m1:7077", SESSION, CLUSTER);
    assertRefused(LeaderRecord.verify(LEADER, record, SESSION + 1, CLUSTER), "the node belongs to session");
    assertRefused(LeaderRecord.verify(LEADER, record, 0, CLUSTER), "no session");
  }

  @Test
  void aGenuineRecordCopiedToAnotherClustersPath_isRefused() {
    byte[] record = LeaderRecord.signed(LEADER, "m1:7077", SESSION, CLUSTER);
    assertRefused(LeaderRecord.verify("/other/leader", record, SESSION, CLUSTER), "not made with");
  }

  @Test
  void aChangedAddress_isRefused() {
    String[] lines = new String(LeaderRecord.signed(LEADER, "m1:7077", SESSION, CLUSTER), StandardCharsets.UTF_8)
        .split("\n");
    byte[] changed = ("evil:7077\n" + lines[1] + "\n" + lines[2]).getBytes(StandardCharsets.UTF_8);
    assertRefused(LeaderRecord.verify(LEADER, changed, SESSION, CLUSTER), "not made with");
  }

  @Test
  void aBareAddressOrAMalformedRecord_isRefused() {
    assertRefused(LeaderRecord.verify(LEADER, "m1:7077".getBytes(StandardCharsets.UTF_8), SESSION, CLUSTER),
        "no proof");
    assertRefused(LeaderRecord.verify(LEADER, "m1:7077\nsession zz\nproof !!".getBytes(StandardCharsets.UTF_8),
        SESSION, CLUSTER), "malformed");
    assertEquals("m1:7077", LeaderRecord.address("m1:7077".getBytes(StandardCharsets.UTF_8)));
  }
}
