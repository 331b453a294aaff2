package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.scache.common.ScacheException;
import org.scache.common.auth.SubmitterCredential;
import org.scache.common.protocol.RegisterApplication;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.VouchApplication;
import org.scache.common.testing.ManualClock;

/** Who an application registers as, and when it may not: on real registries, without sockets. */
class ApplicationAdmissionTest {
  private static final byte[] SECRET = "job token".getBytes(StandardCharsets.UTF_8);
  private static final byte[] SUBMITTER_KEY = "submitter key".getBytes(StandardCharsets.UTF_8);

  private final ManualClock clock = new ManualClock();
  private final ApplicationRegistry applications = new ApplicationRegistry(clock, Duration.ofMinutes(5))
      .limitPerUser(3);

  private ApplicationAdmission admission(boolean vouchedOnly, int perSecond) {
    return new ApplicationAdmission(applications, new ApplicationVouches(clock), new RegistrationRate(clock,
        perSecond), vouchedOnly, Duration.ofMillis(200), SUBMITTER_KEY, clock);
  }

  private static ScacheException refusal(CompletableFuture<Void> f) {
    return ScacheException.from(assertThrows(RuntimeException.class, f::join));
  }

  @Test
  void vouchedOnly_unvouchedRegistration_isRefusedNamingTheKey() {
    ScacheException e = refusal(admission(true, 0).register(new RegisterApplication("app-1", SECRET), "10.0.0.9"));
    assertEquals(Status.AUTH_FAILED, e.status());
    assertTrue(e.getMessage().contains("scache.security.applications.vouched"), e.getMessage());
    assertTrue(!applications.isRegistered("app-1"));
  }

  @Test
  void vouchedOnly_vouchedApplication_registersAsItsUser() {
    ApplicationAdmission a = admission(true, 0);
    a.vouch(new VouchApplication("app-1", "alice", SECRET));
    a.register(new RegisterApplication("app-1", SECRET), "10.0.0.9").join();
    assertEquals("alice", applications.userOf("app-1"));
    assertEquals("user:alice", applications.ownerOf("app-1"));
  }

  @Test
  void vouchedSecret_anotherSecretRegistered_isRefused() {
    ApplicationAdmission a = admission(true, 0);
    a.vouch(new VouchApplication("app-1", "alice", SECRET));
    assertEquals(Status.AUTH_FAILED, refusal(a.register(new RegisterApplication("app-1",
        "impostor".getBytes(StandardCharsets.UTF_8)), "10.0.0.9")).status());
  }

  @Test
  void registrationBeforeItsVouch_waitsForIt() {
    ApplicationAdmission a = admission(true, 0);
    CompletableFuture<Void> waiting = a.register(new RegisterApplication("app-1", SECRET), "10.0.0.9");
    a.vouch(new VouchApplication("app-1", "alice", new byte[0]));
    waiting.join();
    assertEquals("alice", applications.userOf("app-1"));
  }

  @Test
  void submitterCredential_registersAsItsUser_forgedAndExpiredAreRefused() {
    ApplicationAdmission a = admission(true, 0);
    Instant later = Instant.ofEpochMilli(clock.millis()).plusSeconds(3600);
    a.register(new RegisterApplication("app-1", SECRET, SubmitterCredential.mint(SUBMITTER_KEY, "carol", later)),
        "10.0.0.9").join();
    assertEquals("carol", applications.userOf("app-1"));
    String forged = SubmitterCredential.mint("guess".getBytes(StandardCharsets.UTF_8), "carol", later);
    assertEquals(Status.AUTH_FAILED, refusal(a.register(new RegisterApplication("app-2", SECRET, forged),
        "10.0.0.9")).status());
    String expired = SubmitterCredential.mint(SUBMITTER_KEY, "carol", Instant.ofEpochMilli(clock.millis()));
    ScacheException e = refusal(a.register(new RegisterApplication("app-3", SECRET, expired), "10.0.0.9"));
    assertTrue(e.getMessage().contains("expired"), e.getMessage());
  }

  @Test
  void notVouchedOnly_unvouchedApplication_isItsOwnUser() {
    admission(false, 0).register(new RegisterApplication("app-1", SECRET), "10.0.0.9").join();
    assertEquals("application:app-1", applications.ownerOf("app-1"));
  }

  @Test
  void applicationsOfOneUser_pastTheLimit_areRefusedUntilOneIsRemoved() {
    ApplicationAdmission a = admission(true, 0);
    for (int i = 0; i < 4; i++) {
      a.vouch(new VouchApplication("app-" + i, "alice", SECRET));
    }
    for (int i = 0; i < 3; i++) {
      a.register(new RegisterApplication("app-" + i, SECRET), "10.0.0.9").join();
    }
    ScacheException e = refusal(a.register(new RegisterApplication("app-3", SECRET), "10.0.0.9"));
    assertEquals(Status.LIMIT_EXCEEDED, e.status());
    assertTrue(e.getMessage().contains("scache.master.applications.per.user.max"), e.getMessage());
    applications.remove("app-0");
    a.register(new RegisterApplication("app-3", SECRET), "10.0.0.9").join();
  }

  @Test
  void registrationsPastTheRate_areAnsweredRetryLater_perPrincipal() {
    ApplicationAdmission a = admission(false, 5);
    for (int i = 0; i < 5; i++) {
      a.register(new RegisterApplication("flood-" + i, SECRET), "10.0.0.66").join();
    }
    assertEquals(Status.RETRY_LATER, refusal(a.register(new RegisterApplication("flood-5", SECRET),
        "10.0.0.66")).status());
    a.register(new RegisterApplication("other", SECRET), "10.0.0.9").join();
    a.register(new RegisterApplication("flood-0", SECRET), "10.0.0.66").join();
    clock.advance(Duration.ofMillis(200));
    a.register(new RegisterApplication("flood-5", SECRET), "10.0.0.66").join();
  }

  @Test
  void budgetOfShuffles_isSharedByTheApplicationsOfAUser() {
    ApplicationAdmission a = admission(true, 0);
    a.vouch(new VouchApplication("app-1", "alice", SECRET));
    a.vouch(new VouchApplication("app-2", "alice", SECRET));
    a.vouch(new VouchApplication("app-3", "bob", SECRET));
    for (String app : new String[] {"app-1", "app-2", "app-3"}) {
      a.register(new RegisterApplication(app, SECRET), "10.0.0.9").join();
    }
    org.scache.common.shuffle.ShuffleSpec one = spec("app-1");
    long cost = ShuffleBudget.costOf(one);
    ShuffleBudget budget = ShuffleBudget.of(cost * 4, 0.5, 0, applications::ownerOf);
    budget.charge(one);
    budget.charge(spec("app-2"));
    ScacheException e = assertThrows(ScacheException.class, () -> budget.charge(spec("app-2")));
    assertTrue(e.getMessage().contains("user alice"), e.getMessage());
    budget.charge(spec("app-3"));
  }

  private static org.scache.common.shuffle.ShuffleSpec spec(String app) {
    return new org.scache.common.shuffle.ShuffleSpec(app, 0, 10, 1000,
        org.scache.common.shuffle.PartitionerKind.HASH, 0);
  }
}
