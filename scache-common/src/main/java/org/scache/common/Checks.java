package org.scache.common;

/** Fail-fast argument checks with formatted messages. */
public final class Checks {
  private Checks() {}

  /** Throws {@link IllegalArgumentException} with the formatted message unless {@code condition}. */
  public static void require(boolean condition, String message, Object... args) {
    if (!condition) {
      throw new IllegalArgumentException(args.length == 0 ? message : String.format(message, args));
    }
  }

  /** Throws {@link IllegalStateException} with the formatted message unless {@code condition}. */
  public static void requireState(boolean condition, String message, Object... args) {
    if (!condition) {
      throw new IllegalStateException(args.length == 0 ? message : String.format(message, args));
    }
  }
}
