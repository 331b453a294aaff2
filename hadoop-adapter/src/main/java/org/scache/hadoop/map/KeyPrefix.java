package org.scache.hadoop.map;

import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;

/**
 * The first four bytes of a serialized key, as an int that orders like the key, for the comparators
 * that order keys by their bytes alone (Text's and BytesWritable's: unsigned bytes after a length
 * header). The sort keeps it in each record's index entry, so most comparisons end there, without a
 * jump into the serialized records; keys whose prefixes are equal go to the job's comparator.
 * Bytes past the key's end count as zero: a shorter key's prefix is then never above a longer key's
 * that starts with it, and equal prefixes are always settled by the comparator.
 */
abstract class KeyPrefix {
  private static final KeyPrefix TEXT = new KeyPrefix() {
    @Override
    int headerBytes(byte[] data, int keyStart) {
      return WritableUtils.decodeVIntSize(data[keyStart]);
    }
  };
  private static final KeyPrefix BYTES_WRITABLE = new KeyPrefix() {
    @Override
    int headerBytes(byte[] data, int keyStart) {
      return 4;
    }
  };

  /** The prefix for keys ordered by {@code comparator}, or null when it orders them otherwise. */
  static KeyPrefix forComparator(RawComparator<?> comparator) {
    if (comparator == null) {
      return null;
    }
    // exact classes: a subclass may order keys differently
    if (comparator.getClass() == Text.Comparator.class) {
      return TEXT;
    }
    if (comparator.getClass() == BytesWritable.Comparator.class) {
      return BYTES_WRITABLE;
    }
    return null;
  }

  /** Length of the header in front of the key's bytes. */
  abstract int headerBytes(byte[] data, int keyStart);

  /** The prefix of the key serialized in {@code data[keyStart,
      keyEnd)}; compare two with {@link Integer#compareUnsigned}. */
  final int of(byte[] data, int keyStart, int keyEnd) {
    int from = keyStart + headerBytes(data, keyStart);
    int prefix = 0;
    for (int i = 0; i < 4; i++) {
      int b = from + i < keyEnd ? data[from + i] & 0xff : 0;
      prefix = (prefix << 8) | b;
    }
    return prefix;
  }
}
