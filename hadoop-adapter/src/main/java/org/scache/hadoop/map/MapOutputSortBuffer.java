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
 * entries the sort is already walking rather than jumping through an array of positions.
 */
final class MapOutputSortBuffer<K, V> implements IndexedSortable {
  /** Index entries per record: partition, key start, value start, value end. */
  private static final int META = 4;
  /** Bytes one record's index costs, counted against the sort buffer like Hadoop's kvmeta. */
  static final int INDEX_BYTES_PER_RECORD = META * 4;

  private final DataOutputBuffer data;
  private final Serializer<K> keySerializer;
  private final Serializer<V> valueSerializer;
  private final RawComparator<K> comparator;
  private int[] meta = new int[META * 1024];
  private int count;
  private byte[] sortedData;

  MapOutputSortBuffer(int initialBytes, Serializer<K> keySerializer, Serializer<V> valueSerializer,
      RawComparator<K> comparator) throws IOException {
    this.data = new DataOutputBuffer(initialBytes);
    this.keySerializer = keySerializer;
    this.valueSerializer = valueSerializer;
    this.comparator = comparator;
    keySerializer.open(data);
    valueSerializer.open(data);
  }

  /** Serializes one record; returns its serialized size. */
  int add(K key, V value, int partition) throws IOException {
    int keyStart = data.getLength();
    keySerializer.serialize(key);
    int valueStart = data.getLength();
    valueSerializer.serialize(value);
    int valueEnd = data.getLength();
    if (META * (count + 1) > meta.length) {
      meta = Arrays.copyOf(meta, meta.length * 2);
    }
    int m = META * count++;
    meta[m] = partition;
    meta[m + 1] = keyStart;
    meta[m + 2] = valueStart;
    meta[m + 3] = valueEnd;
    return valueEnd - keyStart;
  }

  int records() {
    return count;
  }

  /** Bytes held: serialized records plus their index, as the sort buffer limit counts them. */
  long bytesUsed() {
    return (long) data.getLength() + (long) INDEX_BYTES_PER_RECORD * count;
  }

  /** Sorts the records by partition, then key. */
  void sort(IndexedSorter sorter, Progressable progress) {
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
      while (pos < count && meta[META * pos] == p) {
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
      int m = META * i;
      bytes += meta[m + 3] - meta[m + 1];
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
    int a = META * i;
    int b = META * j;
    int byPartition = Integer.compare(meta[a], meta[b]);
    if (byPartition != 0) {
      return byPartition;
    }
    return comparator.compare(sortedData, meta[a + 1], meta[a + 2] - meta[a + 1],
        sortedData, meta[b + 1], meta[b + 2] - meta[b + 1]);
  }

  @Override
  public void swap(int i, int j) {
    int a = META * i;
    int b = META * j;
    for (int k = 0; k < META; k++) {
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
      int m = META * pos;
      key.reset(sortedData, meta[m + 1], meta[m + 2] - meta[m + 1]);
      return key;
    }

    @Override
    public DataInputBuffer getValue() {
      int m = META * pos;
      value.reset(sortedData, meta[m + 2], meta[m + 3] - meta[m + 2]);
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
