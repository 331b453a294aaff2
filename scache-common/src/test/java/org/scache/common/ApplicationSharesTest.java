package org.scache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ApplicationSharesTest {
  private final Map<String, String> users = new HashMap<>();
  private final ApplicationShares shares = new ApplicationShares(100, 50,
      app -> QuotaOwner.of(app, users.getOrDefault(app, "")));

  @Test
  void secondApplicationOfAUser_sharesTheUsersLimit() {
    users.put("app-1", "alice");
    users.put("app-2", "alice");
    shares.add("app-1", 40);
    assertTrue(shares.fitsApplication("app-2", 10));
    assertFalse(shares.fitsApplication("app-2", 11), "alice holds 40 of her 50 through app-1");
    assertEquals("user alice", shares.describeOwnerOf("app-2"));
    assertTrue(shares.fitsApplication("app-3", 50), "an application of no known user is its own owner");
    assertEquals("application app-3", shares.describeOwnerOf("app-3"));
  }

  @Test
  void applicationsOfNoKnownUser_eachHaveTheirOwnLimit() {
    shares.add("app-1", 50);
    assertFalse(shares.fitsApplication("app-1", 1));
    assertTrue(shares.fitsApplication("app-2", 50));
  }

  @Test
  void ownerLearnedWhileHolding_givesBackToTheOwnerItWasCountedFor() {
    shares.add("app-1", 30);
    users.put("app-1", "alice");
    users.put("app-2", "alice");
    assertTrue(shares.fitsApplication("app-2", 50), "app-1's 30 are counted for app-1 itself until it holds none");
    shares.remove("app-1", 30);
    assertEquals(0, shares.total());
    shares.add("app-1", 30);
    assertFalse(shares.fitsApplication("app-2", 21), "now counted for alice");
    shares.remove("app-1", 30);
    assertTrue(shares.fitsApplication("app-2", 50));
  }
}
