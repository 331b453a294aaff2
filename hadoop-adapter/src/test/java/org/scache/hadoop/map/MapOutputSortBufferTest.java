package org.scache.hadoop.map;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progressable;
import org.apache.hadoop.util.QuickSort;
import org.junit.jupiter.api.Test;

/** The collector's sort: records come back by partition, then in the job comparator's order. */
class MapOutputSortBufferTest {
  private static final int PARTITIONS = 3;
  private static final Progressable NO_PROGRESS = () -> {};

  @Test
  void textKeys_sortAsTheComparatorOrdersThem_withPrefixesInTheIndex() throws IOException {
    List<Text> keys = new ArrayList<>();
    Random random = new Random(11);
    for (int i = 0; i < 5000; i++) {
      keys.add(new Text(randomBytes(random)));
    }
    RawComparator<Text> comparator = registered(Text.class);
    MapOutputSortBuffer<Text, Text> buffer = buffer(Text.class, comparator);
    assertEquals(20, buffer.indexBytesPerRecord());
    assertSortedLikeTheComparator(buffer, keys, comparator, Text::new);
  }

  @Test
  void bytesWritableKeys_sortAsTheComparatorOrdersThem_withPrefixesInTheIndex() throws IOException {
    List<BytesWritable> keys = new ArrayList<>();
    Random random = new Random(12);
    for (int i = 0; i < 5000; i++) {
      keys.add(new BytesWritable(randomBytes(random)));
    }
    RawComparator<BytesWritable> comparator = registered(BytesWritable.class);
    MapOutputSortBuffer<BytesWritable, Text> buffer = buffer(BytesWritable.class, comparator);
    assertEquals(20, buffer.indexBytesPerRecord());
    assertSortedLikeTheComparator(buffer, keys, comparator, BytesWritable::new);
  }

  @Test
  void anotherComparator_ordersTheRecords_withoutPrefixes() throws IOException {
    List<Text> keys = new ArrayList<>();
    Random random = new Random(13);
    for (int i = 0; i < 2000; i++) {
      keys.add(new Text(randomBytes(random)));
    }
    @SuppressWarnings("unchecked") // Hadoop's WritableComparator implements the raw RawComparator
    RawComparator<Text> descending = new DescendingText();
    MapOutputSortBuffer<Text, Text> buffer = buffer(Text.class, descending);
    assertEquals(16, buffer.indexBytesPerRecord());
    assertSortedLikeTheComparator(buffer, keys, descending, Text::new);
  }

  /**
   * Keys short and long, empty, with bytes above 0x7f (unsigned order), many sharing their first
   * four bytes or being each other's prefixes, so ties in the index go to the comparator.
   */
  private static byte[] randomBytes(Random random) {
    int length = random.nextInt(4) == 0 ? random.nextInt(5) : random.nextInt(12);
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) (i < 3 ? "ab\u00ff".charAt(random.nextInt(3)) : random.nextInt(256));
    }
    return b;
  }

  private static <K> MapOutputSortBuffer<K, Text> buffer(Class<K> keyClass, RawComparator<K> comparator)
      throws IOException {
    SerializationFactory serialization = new SerializationFactory(new Configuration(false));
    return new MapOutputSortBuffer<>(1 << 16, serialization.getSerializer(keyClass),
        serialization.getSerializer(Text.class), comparator);
  }

  private static <K extends WritableComparable<?>> void assertSortedLikeTheComparator(
      MapOutputSortBuffer<K, Text> buffer, List<K> keys, RawComparator<K> comparator,
      java.util.function.Supplier<K> emptyKey) throws IOException {
    List<Record<K>> expected = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      int partition = i % PARTITIONS;
      buffer.add(keys.get(i), new Text("value " + i), partition);
      expected.add(new Record<>(partition, keys.get(i), "value " + i));
    }
    buffer.sort(new QuickSort(), NO_PROGRESS);
    int[] starts = buffer.partitionStarts(PARTITIONS);
    List<Record<K>> actual = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      RawKeyValueIterator records = buffer.iterator(starts[p], starts[p + 1]);
      while (records.next()) {
        K key = emptyKey.get();
        Text value = new Text();
        read(records.getKey(), key);
        read(records.getValue(), value);
        actual.add(new Record<>(p, key, value.toString()));
      }
    }
    Comparator<Record<K>> order = Comparator.<Record<K>>comparingInt(Record::partition)
        .thenComparing(Record::key, comparator);
    // equal keys keep no order in a quicksort: compare values within runs of equal keys as sets
    expected.sort(order.thenComparing(Record::value));
    actual.sort(order.thenComparing(Record::value));
    assertEquals(keys.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.get(i).partition(), actual.get(i).partition(), "record " + i);
      assertEquals(0, comparator.compare(expected.get(i).key(), actual.get(i).key()), "record " + i);
      assertEquals(expected.get(i).value(), actual.get(i).value(), "record " + i);
    }
    assertInOrder(buffer, order, emptyKey, starts);
  }

  /** The buffer's own order, before any re-sorting here: partitions ascending, keys never descending. */
  private static <K extends WritableComparable<?>> void assertInOrder(MapOutputSortBuffer<K, Text> buffer,
      Comparator<Record<K>> order, java.util.function.Supplier<K> emptyKey, int[] starts)
      throws IOException {
    Record<K> previous = null;
    for (int p = 0; p < PARTITIONS; p++) {
      RawKeyValueIterator records = buffer.iterator(starts[p], starts[p + 1]);
      while (records.next()) {
        K key = emptyKey.get();
        read(records.getKey(), key);
        Record<K> current = new Record<>(p, key, "");
        if (previous != null && order.compare(previous, current) > 0) {
          throw new AssertionError("out of order: " + previous.key() + " before " + current.key());
        }
        previous = current;
      }
    }
  }

  private static void read(DataInputBuffer in, org.apache.hadoop.io.Writable into) throws IOException {
    DataInputBuffer copy = new DataInputBuffer();
    copy.reset(in.getData(), in.getPosition(), in.getLength() - in.getPosition());
    into.readFields(copy);
  }

  private record Record<K>(int partition, K key, String value) {}

  /** Text keys in descending order: a comparator the prefix must leave alone. */
  private static final class DescendingText extends WritableComparator {
    DescendingText() {
      super(Text.class, true);
    }

    @Override
    public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
      return -WritableComparator.get(Text.class).compare(b1, s1, l1, b2, s2, l2);
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    @Override
    public int compare(WritableComparable a, WritableComparable b) {
      return -a.compareTo(b);
    }
  }

  /** Hadoop's registered comparator of {@code type}, which its API hands out as a raw type. */
  @SuppressWarnings("unchecked")
  private static <K extends WritableComparable<?>> RawComparator<K> registered(Class<K> type) {
    return (RawComparator<K>) WritableComparator.get(type);
  }
}
