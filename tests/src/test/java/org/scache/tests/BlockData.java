package org.scache.tests;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Test block contents without keeping them: every block is a window of one random source array,
 * chosen by a seed, so the bytes read back can be checked without storing what was written.
 */
final class BlockData {
  static final int MAX = 8 << 20;
  private static final byte[] SOURCE = new byte[2 * MAX];

  static {
    new SplittableRandom(20261122).nextBytes(SOURCE);
  }

  private BlockData() {}

  /** {@code size} random bytes of their own, any size, the same for the same seed. */
  static byte[] random(int size, long seed) {
    byte[] b = new byte[size];
    new SplittableRandom(seed).nextBytes(b);
    return b;
  }

  static int offset(long seed) {
    return (int) Math.floorMod(seed * 0x9E3779B97F4A7C15L, (long) MAX);
  }

  static byte[] bytes(long seed, int length) {
    return Arrays.copyOfRange(SOURCE, offset(seed), offset(seed) + length);
  }

  static java.nio.ByteBuffer view(long seed, int length) {
    return java.nio.ByteBuffer.wrap(SOURCE, offset(seed), length).slice();
  }

  static boolean matches(long seed, byte[] data) {
    int off = offset(seed);
    return Arrays.equals(SOURCE, off, off + data.length, data, 0, data.length);
  }

  static boolean matches(long seed, int length, java.nio.ByteBuffer data) {
    return data.remaining() == length && view(seed, length).equals(data);
  }
}
