package org.scache.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DaemonProcessTest {

  @Test
  void portOf_readsTheMastersLine() {
    assertEquals(41319, DaemonProcess.portOf("scache master listening on port 41319"));
  }

  @Test
  void portOf_readsTheWorkersLine() {
    assertEquals(35539, DaemonProcess.portOf("scache worker worker1 listening on 127.0.0.1:35539"));
  }
}
