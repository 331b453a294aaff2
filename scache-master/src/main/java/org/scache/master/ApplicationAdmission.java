package org.scache.master;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.scache.common.Clock;
import org.scache.common.ScacheException;
import org.scache.common.auth.SubmitterCredential;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.RegisterApplication;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.VouchApplication;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides who an application registers as, and whether it may: an application the cluster vouched for is its
 * vouched user's (and must register the secret vouched for, when the node knew it), one carrying a valid
 * submitter credential is the user the credential names, and any other is refused when the operator asks for
 * vouched applications only ({@code scache.security.applications.vouched}) or else is its own user. A
 * registration not vouched for yet waits a while for its NodeManager's announcement, which races the task's
 * registration. New registrations are counted per principal ({@link RegistrationRate}).
 */
final class ApplicationAdmission {
  private static final Logger LOG = LoggerFactory.getLogger(ApplicationAdmission.class);

  private final ApplicationRegistry applications;
  private final ApplicationVouches vouches;
  private final RegistrationRate rate;
  private final boolean vouchedOnly;
  private final Duration wait;
  private final byte[] submitterSecret;
  private final Clock clock;

  ApplicationAdmission(ApplicationRegistry applications, ApplicationVouches vouches, RegistrationRate rate,
      boolean vouchedOnly, Duration wait, byte[] submitterSecret, Clock clock) {
    this.applications = applications;
    this.vouches = vouches;
    this.rate = rate;
    this.vouchedOnly = vouchedOnly;
    this.wait = wait;
    this.submitterSecret = submitterSecret.clone();
    this.clock = clock;
  }

  /** Every application admitted, as its own user, with no limit on the rate: as before vouching existed. */
  static ApplicationAdmission open(ApplicationRegistry applications, Clock clock) {
    return new ApplicationAdmission(applications, new ApplicationVouches(clock), RegistrationRate.unlimited(),
        false, Duration.ZERO, new byte[0], clock);
  }

  /** Admission as {@code conf} sets it. */
  static ApplicationAdmission from(ScacheConf conf, ApplicationRegistry applications, Clock clock) {
    return new ApplicationAdmission(applications, new ApplicationVouches(clock),
        new RegistrationRate(clock, conf.get(ScacheOptions.MASTER_APPLICATIONS_REGISTRATIONS_PER_SECOND)),
        conf.get(ScacheOptions.SECURITY_APPLICATIONS_VOUCHED), conf.get(ScacheOptions.SECURITY_APPLICATIONS_VOUCH_WAIT),
        conf.get(ScacheOptions.SECURITY_SUBMITTER_SECRET).getBytes(StandardCharsets.UTF_8), clock);
  }

  /**
   * Registers the application {@code m} names, as the user it is admitted as; {@code peer} is the remote host it
   * came from, its principal for the rate of registrations when no user is known.
   */
  CompletableFuture<Void> register(RegisterApplication m, String peer) {
    String appId = m.appId();
    byte[] secret = m.secret();
    try {
      if (applications.isRegistered(appId)) {
        applications.register(appId, secret);
        return CompletableFuture.completedFuture(null);
      }
      Optional<ApplicationVouches.Vouch> vouch = vouches.of(appId);
      if (vouch.isPresent()) {
        registerVouched(m, vouch.get(), true);
        return CompletableFuture.completedFuture(null);
      }
      if (!m.credential().isEmpty()) {
        String user = credentialUser(m.credential());
        rate.take("user " + user);
        applications.register(appId, secret, user);
        return CompletableFuture.completedFuture(null);
      }
      rate.take("host " + peer);
      if (!vouchedOnly) {
        applications.register(appId, secret, "");
        return CompletableFuture.completedFuture(null);
      }
    } catch (ScacheException e) {
      return CompletableFuture.failedFuture(e);
    }
    return vouches.await(appId, wait).handle((v, e) -> {
      if (e != null) {
        Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
            ? e.getCause() : e;
        if (cause instanceof TimeoutException) {
          throw new ScacheException(Status.AUTH_FAILED, "application " + appId + " is not vouched for by the "
              + "cluster: no NodeManager announced it within " + wait.toMillis() + " ms, and it carries no "
              + "submitter credential (" + ScacheOptions.SECURITY_APPLICATIONS_VOUCHED.key() + "=true; see "
              + ScacheOptions.CLIENT_SUBMITTER_CREDENTIAL.key() + ")");
        }
        throw ScacheException.from(cause);
      }
      registerVouched(m, v, false);
      return null;
    });
  }

  /** The cluster vouches for an application: a registered one takes its user now. */
  void vouch(VouchApplication m) {
    vouches.vouch(m.appId(), m.user(), m.secret());
    if (applications.isRegistered(m.appId())) {
      applications.attachUser(m.appId(), m.user());
      byte[] registered = applications.requireSecret(m.appId());
      if (!vouches.of(m.appId()).map(v -> v.allows(registered)).orElse(true)) {
        LOG.warn("application {} of user {} was registered with a secret other than the one its NodeManager "
            + "vouched for", m.appId(), m.user());
      }
    }
  }

  /** The application was removed: its vouch goes too. */
  void removed(String appId) {
    vouches.forget(appId);
  }

  private void registerVouched(RegisterApplication m, ApplicationVouches.Vouch vouch, boolean counted) {
    if (!vouch.allows(m.secret())) {
      throw new ScacheException(Status.AUTH_FAILED, "application " + m.appId() + " registers a secret other than "
          + "the one the cluster vouched for");
    }
    if (counted) {
      rate.take("user " + vouch.user());
    }
    applications.register(m.appId(), m.secret(), vouch.user());
  }

  private String credentialUser(String credential) {
    if (submitterSecret.length == 0) {
      throw new ScacheException(Status.AUTH_FAILED, "this master accepts no submitter credential ("
          + ScacheOptions.SECURITY_SUBMITTER_SECRET.key() + " is not set)");
    }
    return SubmitterCredential.verify(submitterSecret, credential, clock.millis());
  }
}
