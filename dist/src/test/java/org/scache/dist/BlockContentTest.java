package org.scache.dist;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class BlockContentTest {

  @Test
  void fill_isAFunctionOfSeedAndCoordinates() {
    byte[] a = new byte[1003];
    byte[] b = new byte[1003];
    new BlockContent(7).fill(a, 1, 2, 3);
    new BlockContent(7).fill(b, 1, 2, 3);
    assertArrayEquals(a, b);
    new BlockContent(7).fill(b, 1, 3, 2);
    assertFalse(Arrays.equals(a, b));
  }

  @Test
  void matches_acceptsTheSameBlockAndRejectsOneChangedByte() {
    BlockContent content = new BlockContent(11);
    byte[] block = new byte[4096];
    content.fill(block, 0, 5, 6);
    byte[] scratch = new byte[4096];
    assertTrue(content.matches(ByteBuffer.wrap(block), scratch, 0, 5, 6));
    block[4000] ^= 1;
    assertFalse(content.matches(ByteBuffer.wrap(block), scratch, 0, 5, 6));
  }

  @Test
  void matches_rejectsAnotherLength() {
    BlockContent content = new BlockContent(11);
    byte[] block = new byte[100];
    content.fill(block, 0, 0, 0);
    assertFalse(content.matches(ByteBuffer.wrap(block, 0, 99), new byte[100], 0, 0, 0));
  }
}
