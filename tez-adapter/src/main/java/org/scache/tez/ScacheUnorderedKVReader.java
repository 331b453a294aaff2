package org.scache.tez;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.tez.common.counters.TezCounter;
import org.apache.tez.runtime.library.api.KeyValueReader;
import org.apache.tez.runtime.library.api.TezRuntimeConfiguration;
import org.apache.tez.runtime.library.common.ConfigUtils;
import org.apache.tez.runtime.library.common.sort.impl.IFile;

/**
 * Streams the records of an unordered SCache input: every held segment in turn, read with Tez's IFile
 * reader (decompressing and checking checksums as the edge's configuration says) and deserialized with
 * the edge's key and value classes. Keys and values may be reused between records, as in Tez.
 */
final class ScacheUnorderedKVReader extends KeyValueReader {
  private final Iterator<HeldSegments.Segment> segments;
  private final HeldSegments holder;
  private final CompressionCodec codec;
  private final boolean readAhead;
  private final int readAheadLength;
  private final int bufferSize;
  private final TezCounter records;
  private final DataInputBuffer keyIn = new DataInputBuffer();
  private final DataInputBuffer valueIn = new DataInputBuffer();
  private final Deserializer<Object> keys;
  private final Deserializer<Object> values;
  private IFile.Reader current;
  private Object key;
  private Object value;

  ScacheUnorderedKVReader(List<HeldSegments.Segment> segments, HeldSegments holder, Configuration conf,
      CompressionCodec codec, TezCounter records) throws IOException {
    this.segments = segments.iterator();
    this.holder = holder;
    this.codec = codec;
    this.readAhead = conf.getBoolean(TezRuntimeConfiguration.TEZ_RUNTIME_IFILE_READAHEAD,
        TezRuntimeConfiguration.TEZ_RUNTIME_IFILE_READAHEAD_DEFAULT);
    this.readAheadLength = conf.getInt(TezRuntimeConfiguration.TEZ_RUNTIME_IFILE_READAHEAD_BYTES,
        TezRuntimeConfiguration.TEZ_RUNTIME_IFILE_READAHEAD_BYTES_DEFAULT);
    this.bufferSize = conf.getInt("io.file.buffer.size", 4096);
    this.records = records;
    SerializationFactory serialization = new SerializationFactory(conf);
    this.keys = serialization.getDeserializer(ConfigUtils.getIntermediateInputKeyClass(conf));
    this.values = serialization.getDeserializer(ConfigUtils.getIntermediateInputValueClass(conf));
    keys.open(keyIn);
    values.open(valueIn);
  }

  @Override
  public boolean next() throws IOException {
    while (true) {
      if (current == null) {
        if (!segments.hasNext()) {
          key = null;
          value = null;
          holder.deleteFiles();
          return false;
        }
        current = open(segments.next());
      }
      if (current.nextRawKey(keyIn)) {
        current.nextRawValue(valueIn);
        key = keys.deserialize(key);
        value = values.deserialize(value);
        records.increment(1);
        return true;
      }
      current.close();
      current = null;
    }
  }

  private IFile.Reader open(HeldSegments.Segment s) throws IOException {
    InputStream in = s.memory() != null ? new ByteArrayInputStream(s.memory())
        : Files.newInputStream(s.file());
    return new IFile.Reader(in, s.length(), codec, null, null, readAhead, readAheadLength, bufferSize);
  }

  @Override
  public Object getCurrentKey() {
    return key;
  }

  @Override
  public Object getCurrentValue() {
    return value;
  }

  /** Closes the segment being read and removes the segment files. */
  void close() throws IOException {
    if (current != null) {
      current.close();
      current = null;
    }
    holder.deleteFiles();
  }
}
