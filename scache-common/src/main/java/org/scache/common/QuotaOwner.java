package org.scache.common;

/**
 * Who an application's quotas are counted against: its user, when the cluster vouched for it or a submitter
 * credential named one, so that a user's applications share one quota; else the application itself. Kept as one
 * string key, prefixed so that a user and an application id never collide.
 */
public final class QuotaOwner {
  private static final String USER = "user:";
  private static final String APPLICATION = "application:";

  private QuotaOwner() {}

  /** The owner of an application of {@code user}, or of the application itself when {@code user} is empty. */
  public static String of(String appId, String user) {
    return user.isEmpty() ? APPLICATION + appId : USER + user;
  }

  /** The owner of an application of no known user: the application. */
  public static String ofApplication(String appId) {
    return APPLICATION + appId;
  }

  /** "user alice" or "application app-1", for messages. */
  public static String describe(String owner) {
    return owner.startsWith(USER) ? "user " + owner.substring(USER.length())
        : "application " + owner.substring(owner.indexOf(':') + 1);
  }
}
