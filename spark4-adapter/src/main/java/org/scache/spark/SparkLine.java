package org.scache.spark;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import org.apache.spark.Aggregator;
import org.apache.spark.Partitioner;
import org.apache.spark.TaskContext;
import org.apache.spark.scheduler.MapStatus;
import org.apache.spark.scheduler.MapStatus$;
import org.apache.spark.serializer.Serializer;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.util.collection.ExternalSorter;
import scala.Option;
import scala.math.Ordering;

/**
 * The Spark calls whose form differs between the Spark lines the adapter's shared sources are compiled for; each
 * line's module has its own. This is Spark 4's, one jar for 4.0 to 4.2: from Spark 4.1 the sorter's constructor takes
 * the shuffle's row-based checksums and the map status a checksum of the map's rows, so both are looked up once, in
 * the form the running Spark has. SCache's writer gives no row checksums (an empty array, and 0 as the map's
 * checksum, as Spark does when its order-independent shuffle checksum is off).
 */
final class SparkLine {
  private static final String ROW_CHECKSUM = "org.apache.spark.shuffle.checksum.RowBasedChecksum";
  private static final MethodHandle SORTER = sorterConstructor();
  private static final MethodHandle MAP_STATUS = mapStatusFactory();

  private SparkLine() {}

  @SuppressWarnings("unchecked")
  static <K, V, C> ExternalSorter<K, V, C> sorter(TaskContext context, Option<Aggregator<K, V, C>> aggregator,
      Option<Partitioner> partitioner, Option<Ordering<K>> ordering, Serializer serializer) {
    try {
      return (ExternalSorter<K, V, C>) SORTER.invoke(context, aggregator, partitioner, ordering, serializer);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  static MapStatus mapStatus(BlockManagerId location, long[] lengths, long mapTaskId) {
    try {
      return (MapStatus) MAP_STATUS.invoke(location, lengths, mapTaskId);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code (context, aggregator, partitioner, ordering, serializer)}, with no row checksums where Spark takes them. */
  private static MethodHandle sorterConstructor() {
    MethodType common = MethodType.methodType(void.class, TaskContext.class, Option.class, Option.class,
        Option.class, Serializer.class);
    try {
      Class<?> checksums = rowChecksumArray();
      if (checksums == null) {
        return MethodHandles.publicLookup().findConstructor(ExternalSorter.class, common);
      }
      MethodHandle withChecksums = MethodHandles.publicLookup().findConstructor(ExternalSorter.class,
          common.appendParameterTypes(checksums));
      return MethodHandles.insertArguments(withChecksums, 5, Array.newInstance(checksums.getComponentType(), 0));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("this Spark's ExternalSorter has neither constructor SCache knows", e);
    }
  }

  /** {@code (location, lengths, mapTaskId)}, with 0 as the map's row checksum where Spark takes one. */
  private static MethodHandle mapStatusFactory() {
    MethodType common = MethodType.methodType(MapStatus.class, BlockManagerId.class, long[].class, long.class);
    try {
      MethodHandle apply;
      try {
        apply = MethodHandles.publicLookup().findVirtual(MapStatus$.class, "apply",
            common.appendParameterTypes(long.class));
        apply = MethodHandles.insertArguments(apply, 4, 0L);
      } catch (NoSuchMethodException before41) {
        apply = MethodHandles.publicLookup().findVirtual(MapStatus$.class, "apply", common);
      }
      return apply.bindTo(MapStatus$.MODULE$);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("this Spark's MapStatus has neither factory SCache knows", e);
    }
  }

  private static Class<?> rowChecksumArray() {
    try {
      return Array.newInstance(Class.forName(ROW_CHECKSUM, false, ExternalSorter.class.getClassLoader()), 0)
          .getClass();
    } catch (ClassNotFoundException before41) {
      return null;
    }
  }
}
