package org.apache.tez.runtime.library.common.shuffle.orderedgrouped;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.tez.common.TezRuntimeFrameworkConfigs;
import org.apache.tez.common.counters.TaskCounter;
import org.apache.tez.runtime.api.InputContext;
import org.apache.tez.runtime.library.common.InputAttemptIdentifier;
import org.apache.tez.runtime.library.common.TezRuntimeUtils;
import org.apache.tez.runtime.library.common.shuffle.ShuffleUtils;
import org.apache.tez.runtime.library.common.sort.impl.TezRawKeyValueIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tez's MergeManager fed with IFile segments read from SCache instead of fetched over HTTP: each
 * segment is reserved, copied to memory or to disk, and committed exactly as Tez's fetchers do, so
 * the merger's memory limits, spills, combiner and final merge are Tez's own. It lives in the
 * merger's package because the merger's start, its map outputs and its error callback are
 * package-private there.
 */
public final class ScacheSegmentMerger implements ExceptionReporter {
  private static final Logger LOG = LoggerFactory.getLogger(ScacheSegmentMerger.class);

  private final InputContext context;
  private final MergeManager merger;
  private final CompressionCodec codec;
  private final boolean readAhead;
  private final int readAheadLength;
  private final boolean verifyChecksum;
  private volatile Throwable failure;

  public ScacheSegmentMerger(InputContext context, Configuration conf, long memory, CompressionCodec codec,
      boolean readAhead, int readAheadLength, boolean verifyChecksum) throws IOException {
    this.context = context;
    this.codec = codec;
    this.readAhead = readAhead;
    this.readAheadLength = readAheadLength;
    this.verifyChecksum = verifyChecksum;
    this.merger = new MergeManager(conf, FileSystem.getLocal(conf),
        new LocalDirAllocator(TezRuntimeFrameworkConfigs.LOCAL_DIRS), context,
        TezRuntimeUtils.instantiateCombiner(conf, context),
        context.getCounters().findCounter(TaskCounter.SPILLED_RECORDS),
        context.getCounters().findCounter(TaskCounter.COMBINE_INPUT_RECORDS),
        context.getCounters().findCounter(TaskCounter.MERGED_MAP_OUTPUTS), this, memory, codec, readAhead,
        readAheadLength);
  }

  /** Starts the merger's background merges. */
  public void start() {
    merger.configureAndStart();
  }

  /**
   * Copies one segment ({@code compressedLength} bytes of {@code in}, {@code rawLength} once
   * decompressed) into the merger, waiting for memory as a fetcher would.
   */
  public void add(InputAttemptIdentifier id, InputStream in, long rawLength, long compressedLength)
      throws IOException, InterruptedException {
    MapOutput out;
    while ((out = merger.reserve(id, rawLength, compressedLength, 0)).getType() == MapOutput.Type.WAIT) {
      merger.waitForShuffleToMergeMemory();
    }
    try {
      if (out.getType() == MapOutput.Type.MEMORY) {
        ShuffleUtils.shuffleToMemory(out.getMemory(), in, (int) rawLength, (int) compressedLength, codec, readAhead,
            readAheadLength, LOG, id);
        context.getCounters().findCounter(TaskCounter.SHUFFLE_BYTES_TO_MEM).increment(compressedLength);
      } else {
        ShuffleUtils.shuffleToDisk(out.getDisk(), "scache", in, compressedLength, rawLength, LOG, id, readAhead,
            readAheadLength, verifyChecksum);
        context.getCounters().findCounter(TaskCounter.SHUFFLE_BYTES_TO_DISK).increment(compressedLength);
      }
      out.commit();
    } catch (IOException | RuntimeException e) {
      out.abort();
      throw e;
    }
  }

  /** The final merge of everything added. */
  public TezRawKeyValueIterator finish() throws Throwable {
    return merger.close(true);
  }

  /** Stops the merger without a final merge. */
  public void abandon() {
    try {
      merger.close(false);
    } catch (Throwable t) {
      LOG.debug("closing an abandoned merger", t);
    }
  }

  /** A failure of a background merge, if one happened. */
  public Throwable failure() {
    return failure;
  }

  @Override
  public void reportException(Throwable t) {
    if (failure == null) {
      failure = t;
    }
  }

  @Override
  public void killSelf(Exception exception, String message) {
    reportException(new IOException(message, exception));
  }
}
