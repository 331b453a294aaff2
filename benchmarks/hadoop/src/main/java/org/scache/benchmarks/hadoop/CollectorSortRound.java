package org.scache.benchmarks.hadoop;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.util.QuickSort;
import org.scache.hadoop.map.MapOutputSortBuffer;

/**
 * One round of the collector's sort benchmark ({@link CollectorSortBenchmark}), run
 * in a JVM of its own: fills one {@link MapOutputSortBuffer} with TeraSort's records (10-byte keys, 90-byte
 * values) as a map's collector does, sorts it, and prints the sort's milliseconds and the JVM's CPU
 * milliseconds. With {@code prefix} the keys are ordered by Text's comparator, whose keys' first bytes the
 * sort keeps in its index (the adapter's {@code KeyPrefix}); with {@code plain}, by a subclass of it, which orders them
 * the same but is not one the sort recognises.
 *
 * <pre>
 *   CollectorSortRound prefix|plain RECORDS PARTITIONS
 * </pre>
 */
public final class CollectorSortRound {
  public static final int KEY_BYTES = 10;
  public static final int VALUE_BYTES = 90;

  private CollectorSortRound() {}

  public static void main(String[] args) throws IOException {
    boolean prefix = args[0].equals("prefix");
    int records = Integer.parseInt(args[1]);
    int partitions = Integer.parseInt(args[2]);
    @SuppressWarnings("unchecked") // Hadoop's WritableComparator implements the raw RawComparator
    RawComparator<Text> comparator = prefix ? new Text.Comparator() : new SameOrderAsText();
    SerializationFactory serialization = new SerializationFactory(new Configuration(false));
    int initialBytes = (int) Math.min(Integer.MAX_VALUE - 16, (long) records * (KEY_BYTES + VALUE_BYTES + 4));
    MapOutputSortBuffer<Text, Text> buffer = new MapOutputSortBuffer<>(initialBytes,
        serialization.getSerializer(Text.class), serialization.getSerializer(Text.class), comparator);
    Random random = new Random(42);
    byte[] keyBytes = new byte[KEY_BYTES];
    byte[] valueBytes = new byte[VALUE_BYTES];
    Text key = new Text();
    Text value = new Text();
    for (int i = 0; i < records; i++) {
      random.nextBytes(keyBytes);
      random.nextBytes(valueBytes);
      key.set(keyBytes);
      value.set(valueBytes);
      buffer.add(key, value, Math.floorMod(random.nextInt(), partitions));
    }
    long start = System.nanoTime();
    buffer.sort(new QuickSort(), () -> { });
    long sortMillis = (System.nanoTime() - start) / 1_000_000;
    long cpuMillis = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime() / 1_000_000;
    System.out.println(sortMillis + " " + cpuMillis);
  }

  /** Text's order, from a comparator class the sort does not take for Text's own. */
  private static final class SameOrderAsText extends Text.Comparator {}
}
