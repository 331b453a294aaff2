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

  /**
   * Throws {@link IllegalArgumentException} ({@code "<what> must not be negative: <value>"}) when {@code value} is
   * negative. Unlike {@link #require}, whose arguments are boxed into an array at every call, it allocates nothing
   * when the value is valid: for checks on paths taken once per block.
   */
  public static void requireNonNegative(int value, String what) {
    if (value < 0) {
      throw new IllegalArgumentException(what + " must not be negative: " + value);
    }
  }

  /** Throws {@link IllegalStateException} with the formatted message unless {@code condition}. */
  public static void requireState(boolean condition, String message, Object... args) {
    if (!condition) {
      throw new IllegalStateException(args.length == 0 ? message : String.format(message, args));
    }
  }
}
