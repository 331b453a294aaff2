package org.scache.tez;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.tez.runtime.api.InputContext;
import org.apache.tez.runtime.library.api.TezRuntimeConfiguration;
import org.apache.tez.runtime.library.common.InputAttemptIdentifier;
import org.apache.tez.runtime.library.common.shuffle.orderedgrouped.ScacheSegmentMerger;
import org.apache.tez.runtime.library.common.sort.impl.TezRawKeyValueIterator;
import org.apache.tez.runtime.library.utils.CodecUtils;
import org.scache.client.ByteBufferInputStream;

/**
 * The segments of an ordered input go to Tez's own MergeManager, so memory limits, spills, the combiner
 * and the final merge behave as in Tez's shuffle.
 */
final class MergingSegments implements SegmentSink<TezRawKeyValueIterator> {
  private final ScacheSegmentMerger merger;

  MergingSegments(InputContext context, Configuration conf, long memory) throws IOException {
    CompressionCodec codec = CodecUtils.getCodec(conf);
    boolean readAhead = conf.getBoolean(TezRuntimeConfiguration.TEZ_RUNTIME_IFILE_READAHEAD,
        TezRuntimeConfiguration.TEZ_RUNTIME_IFILE_READAHEAD_DEFAULT);
    int readAheadLength = readAhead ? conf.getInt(TezRuntimeConfiguration.TEZ_RUNTIME_IFILE_READAHEAD_BYTES,
        TezRuntimeConfiguration.TEZ_RUNTIME_IFILE_READAHEAD_BYTES_DEFAULT) : 0;
    boolean verifyChecksum = conf.getBoolean(TezRuntimeConfiguration.TEZ_RUNTIME_SHUFFLE_FETCH_VERIFY_DISK_CHECKSUM,
        TezRuntimeConfiguration.TEZ_RUNTIME_SHUFFLE_FETCH_VERIFY_DISK_CHECKSUM_DEFAULT);
    this.merger = new ScacheSegmentMerger(context, conf, memory, codec, readAhead, readAheadLength, verifyChecksum);
  }

  @Override
  public void start() {
    merger.start();
  }

  @Override
  public void add(InputAttemptIdentifier id, ByteBuffer segment, TezBlock header)
      throws IOException, InterruptedException {
    try (InputStream in = ByteBufferInputStream.of(segment)) {
      merger.add(id, in, header.rawLength(), header.partLength());
    }
  }

  @Override
  public TezRawKeyValueIterator finish() throws IOException {
    try {
      return merger.finish();
    } catch (IOException e) {
      throw e;
    } catch (Throwable t) {
      throw new IOException(t);
    }
  }

  @Override
  public Throwable failure() {
    return merger.failure();
  }

  @Override
  public void abandon() {
    merger.abandon();
  }
}
