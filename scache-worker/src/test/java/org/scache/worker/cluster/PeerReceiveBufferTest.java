package org.scache.worker.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PeerReceiveBufferTest {
  private static final long MILLI = 1_000_000L;

  @Test
  void configuredBuffer_isUsedAsItIs_whateverTheLinkAndRoundTrip() {
    PeerReceiveBuffer b = new PeerReceiveBuffer(48 << 10, 10_000);
    assertEquals(48 << 10, b.getAsInt());
    b.roundTrip(5 * MILLI);
    assertEquals(48 << 10, b.getAsInt());
  }

  @Test
  void unknownLink_leavesTheBufferToTheKernel_evenOnceARoundTripIsTimed() {
    PeerReceiveBuffer b = new PeerReceiveBuffer(0, 0);
    b.roundTrip(MILLI);
    assertEquals(0, b.getAsInt());
  }

  @Test
  void knownLink_beforeAnyRoundTrip_leavesTheBufferToTheKernel() {
    PeerReceiveBuffer b = new PeerReceiveBuffer(0, 1000);
    assertEquals(0, b.getAsInt());
    assertEquals(-1, b.shortestRoundTripMicros());
  }

  @Test
  void knownLink_derivesTwiceTheBandwidthDelayProduct_overTheShortestRoundTrip() {
    PeerReceiveBuffer b = new PeerReceiveBuffer(0, 10_000);
    b.roundTrip(2 * MILLI);
    // 10 Gbit/s × 2 ms = 2.5 MB; twice that
    assertEquals(5_000_000, b.getAsInt());
    b.roundTrip(8 * MILLI);
    assertEquals(5_000_000, b.getAsInt(), "a longer round trip (a queue on the link) does not raise it");
    b.roundTrip(MILLI);
    assertEquals(2_500_000, b.getAsInt());
    assertEquals(2_500_000, b.current(), "what the stats show");
    assertEquals(1000, b.shortestRoundTripMicros());
  }

  @Test
  void slowLinkAndShortRoundTrip_getTheFloor_andAVeryLongOneTheCeiling() {
    PeerReceiveBuffer slow = new PeerReceiveBuffer(0, 40);
    slow.roundTrip(200_000);
    assertEquals(PeerReceiveBuffer.FLOOR, slow.getAsInt());
    PeerReceiveBuffer far = new PeerReceiveBuffer(0, 100_000);
    far.roundTrip(100 * MILLI);
    assertEquals(PeerReceiveBuffer.CEILING, far.getAsInt());
  }

  @Test
  void negativeSettings_areRefused() {
    assertThrows(IllegalArgumentException.class, () -> new PeerReceiveBuffer(-1, 0));
    assertThrows(IllegalArgumentException.class, () -> new PeerReceiveBuffer(0, -1));
  }
}
