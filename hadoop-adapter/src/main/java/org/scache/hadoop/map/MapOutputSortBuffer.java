package org.scache.hadoop.map;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.IndexedSortable;
import org.apache.hadoop.util.IndexedSorter;
import org.apache.hadoop.util.Progress;
import org.apache.hadoop.util.Progressable;

/**
 * A map's output records, serialized into one growing byte array with a small index per record,
 * sorted by (partition, key) with the job's sorter and key comparator, and read back one partition
 * at a time as Hadoop's RawKeyValueIterator (the shape the IFile writer and the combiner take). The
 * sort moves the index entries themselves, as Hadoop's own buffer does, so that a comparison reads
 * entries the sort is already walking rather than jumping through an array of positions. Where the
 * comparator orders keys by their bytes, each entry also holds its key's first bytes
 * ({@link KeyPrefix}), and only keys that share them are compared in the serialized records.
 * Public for the collector's sort benchmark, which fills and sorts one in a JVM of its own.
 */
public final class MapOutputSortBuffer<K, V> implements IndexedSortable {
  /** Index entries per record: partition, key start, value start, value end, and the key's prefix if any. */
  private static final int PARTITION = 0;
  private static final int KEY_START = 1;
  private static final int VALUE_START = 2;
  private static final int VALUE_END = 3;
  private static final int PREFIX = 4;

  private final DataOutputBuffer data;
  private final Serializer<K> keySerializer;
  private final Serializer<V> valueSerializer;
  private final RawComparator<K> comparator;
  private final KeyPrefix prefix;
  /** Ints of the index per record. */
  private final int width;
  private int[] meta;
  private int count;
  private byte[] sortedData;

  public MapOutputSortBuffer(int initialBytes, Serializer<K> keySerializer, Serializer<V> valueSerializer,
      RawComparator<K> comparator) throws IOException {
    this.data = new DataOutputBuffer(initialBytes);
    this.keySerializer = keySerializer;
    this.valueSerializer = valueSerializer;
    this.comparator = comparator;
    this.prefix = KeyPrefix.forComparator(comparator);
    this.width = prefix == null ? PREFIX : PREFIX + 1;
    this.meta = new int[width * 1024];
    keySerializer.open(data);
    valueSerializer.open(data);
  }

  /** Serializes one record; returns its serialized size. */
  public int add(K key, V value, int partition) throws IOException {
    int keyStart = data.getLength();
    keySerializer.serialize(key);
    int valueStart = data.getLength();
    valueSerializer.serialize(value);
    int valueEnd = data.getLength();
    if (width * (count + 1) > meta.length) {
      meta = Arrays.copyOf(meta, meta.length * 2);
    }
    int m = width * count++;
    meta[m + PARTITION] = partition;
    meta[m + KEY_START] = keyStart;
    meta[m + VALUE_START] = valueStart;
    meta[m + VALUE_END] = valueEnd;
    if (prefix != null) {
      meta[m + PREFIX] = prefix.of(data.getData(), keyStart, valueStart);
    }
    return valueEnd - keyStart;
  }

  int records() {
    return count;
  }

  /** Bytes held: serialized records plus their index, as the sort buffer limit counts them (Hadoop's kvmeta too). */
  long bytesUsed() {
    return (long) data.getLength() + (long) indexBytesPerRecord() * count;
  }

  /** Bytes one record's index entry costs: 16, as in Hadoop's buffer, and 4 more for a key prefix. */
  int indexBytesPerRecord() {
    return width * Integer.BYTES;
  }

  /** Sorts the records by partition, then key. */
  public void sort(IndexedSorter sorter, Progressable progress) {
    sortedData = data.getData();
    if (count > 1) {
      sorter.sort(this, 0, count, progress);
    }
  }

  /** After {@link #sort}: the first sorted position of each partition, and {@code records()} at the end. */
  int[] partitionStarts(int partitions) {
    int[] starts = new int[partitions + 1];
    int pos = 0;
    for (int p = 0; p < partitions; p++) {
      starts[p] = pos;
      while (pos < count && meta[width * pos + PARTITION] == p) {
        pos++;
      }
    }
    starts[partitions] = count;
    return starts;
  }

  /** After {@link #sort}: the serialized bytes (keys and values) of the sorted records at positions [from, to). */
  long serializedBytes(int from, int to) {
    long bytes = 0;
    for (int i = from; i < to; i++) {
      int m = width * i;
      bytes += meta[m + VALUE_END] - meta[m + KEY_START];
    }
    return bytes;
  }

  /** After {@link #sort}: the sorted records at positions [from, to). */
  RawKeyValueIterator iterator(int from, int to) {
    return new SortedRecords(from, to);
  }

  void clear() {
    data.reset();
    count = 0;
    sortedData = null;
  }

  @Override
  public int compare(int i, int j) {
    int a = width * i;
    int b = width * j;
    int byPartition = Integer.compare(meta[a + PARTITION], meta[b + PARTITION]);
    if (byPartition != 0) {
      return byPartition;
    }
    if (prefix != null) {
      int byPrefix = Integer.compareUnsigned(meta[a + PREFIX], meta[b + PREFIX]);
      if (byPrefix != 0) {
        return byPrefix;
      }
    }
    return comparator.compare(sortedData, meta[a + KEY_START], meta[a + VALUE_START] - meta[a + KEY_START],
        sortedData, meta[b + KEY_START], meta[b + VALUE_START] - meta[b + KEY_START]);
  }

  @Override
  public void swap(int i, int j) {
    int a = width * i;
    int b = width * j;
    for (int k = 0; k < width; k++) {
      int t = meta[a + k];
      meta[a + k] = meta[b + k];
      meta[b + k] = t;
    }
  }

  private final class SortedRecords implements RawKeyValueIterator {
    private final DataInputBuffer key = new DataInputBuffer();
    private final DataInputBuffer value = new DataInputBuffer();
    private final Progress progress = new Progress();
    private final int from;
    private final int to;
    private int pos;

    SortedRecords(int from, int to) {
      this.from = from;
      this.to = to;
      this.pos = from - 1;
    }

    @Override
    public boolean next() {
      if (++pos >= to) {
        return false;
      }
      progress.set((float) (pos - from) / Math.max(1, to - from));
      return true;
    }

    @Override
    public DataInputBuffer getKey() {
      int m = width * pos;
      key.reset(sortedData, meta[m + KEY_START], meta[m + VALUE_START] - meta[m + KEY_START]);
      return key;
    }

    @Override
    public DataInputBuffer getValue() {
      int m = width * pos;
      value.reset(sortedData, meta[m + VALUE_START], meta[m + VALUE_END] - meta[m + VALUE_START]);
      return value;
    }

    @Override
    public Progress getProgress() {
      return progress;
    }

    @Override
    public void close() {}
  }
}
