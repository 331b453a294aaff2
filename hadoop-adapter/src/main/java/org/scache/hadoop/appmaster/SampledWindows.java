package org.scache.hadoop.appmaster;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * The parts of a map's input split that sampling reads: for a plain file split larger than the read budget,
 * {@code windows} evenly spaced byte ranges that together hold the budget, each a file split of its own that
 * the job's record reader aligns to record boundaries; otherwise the split itself.
 *
 * @param splits the splits to read, new or old API
 * @param windowed whether they are windows of the split (so bounded by bytes, not by a record count)
 */
record SampledWindows(List<Object> splits, boolean windowed) {

  static SampledWindows of(Object split, long readBudget, int windows, boolean compressedWhole) {
    long length = lengthOf(split);
    if (compressedWhole || length < 0) {
      return new SampledWindows(List.of(split), false);
    }
    if (length <= readBudget || windows < 1) {
      return new SampledWindows(List.of(split), true);
    }
    long window = Math.max(1, readBudget / windows);
    long stride = length / windows;
    List<Object> parts = new ArrayList<>(windows);
    for (int i = 0; i < windows; i++) {
      parts.add(window(split, i * stride, window));
    }
    return new SampledWindows(parts, true);
  }

  /** The file of a plain file split, or null for any other split. */
  static Path fileOf(Object split) {
    if (split.getClass() == org.apache.hadoop.mapreduce.lib.input.FileSplit.class) {
      return ((org.apache.hadoop.mapreduce.lib.input.FileSplit) split).getPath();
    }
    if (split.getClass() == org.apache.hadoop.mapred.FileSplit.class) {
      return ((org.apache.hadoop.mapred.FileSplit) split).getPath();
    }
    return null;
  }

  /** The byte length of a plain file split, or -1 for any other split. */
  private static long lengthOf(Object split) {
    if (split.getClass() == org.apache.hadoop.mapreduce.lib.input.FileSplit.class) {
      return ((org.apache.hadoop.mapreduce.lib.input.FileSplit) split).getLength();
    }
    if (split.getClass() == org.apache.hadoop.mapred.FileSplit.class) {
      return ((org.apache.hadoop.mapred.FileSplit) split).getLength();
    }
    return -1;
  }

  private static Object window(Object split, long offset, long length) {
    if (split instanceof org.apache.hadoop.mapreduce.lib.input.FileSplit s) {
      return new org.apache.hadoop.mapreduce.lib.input.FileSplit(s.getPath(), s.getStart() + offset, length,
          new String[0]);
    }
    org.apache.hadoop.mapred.FileSplit s = (org.apache.hadoop.mapred.FileSplit) split;
    return new org.apache.hadoop.mapred.FileSplit(s.getPath(), s.getStart() + offset, length, new String[0]);
  }
}
