package org.apache.tez.runtime.library.common.writers;

import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * The final output and index files a closed {@link UnorderedPartitionedKVWriter} wrote, which SCache's
 * unordered output puts partition by partition. It lives in the writer's package only to read the two paths
 * the writer keeps there; it decides nothing.
 */
public final class ScacheWriterFiles {
  private ScacheWriterFiles() {}

  /** The writer's final output file and its index, or empty when it wrote none (no record at all). */
  public static Optional<Path[]> of(UnorderedPartitionedKVWriter writer) {
    if (writer.finalOutPath == null || writer.finalIndexPath == null) {
      return Optional.empty();
    }
    return Optional.of(new Path[] {writer.finalOutPath, writer.finalIndexPath});
  }
}
