package org.scache.sampling;

/** Fail-fast argument checks with formatted messages, for this dependency-free module. */
final class SamplingChecks {
  private SamplingChecks() {}

  static void require(boolean condition, String message, Object... args) {
    if (!condition) {
      throw new IllegalArgumentException(args.length == 0 ? message : String.format(message, args));
    }
  }
}
