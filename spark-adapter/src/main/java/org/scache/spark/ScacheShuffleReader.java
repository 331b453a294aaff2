package org.scache.spark;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.spark.InterruptibleIterator;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.serializer.SerializerInstance;
import org.apache.spark.serializer.SerializerManager;
import org.apache.spark.shuffle.FetchFailedException;
import org.apache.spark.shuffle.ShuffleReadMetricsReporter;
import org.apache.spark.shuffle.ShuffleReader;
import org.apache.spark.util.TaskCompletionListener;
import org.apache.spark.util.collection.ExternalSorter;
import org.scache.client.ByteBufferInputStream;
import org.scache.client.ScacheClient;
import scala.Option;
import scala.Product2;
import scala.collection.AbstractIterator;
import scala.collection.Iterator;
import scala.math.Ordering;

/**
 * A reduce task's reader of a range of reduce partitions and map outputs, every form Spark asks for
 * (whole partitions, coalesced partition ranges, adaptive skew splits by map range). Blocks come from
 * this node's worker ({@link ReduceBlockSource}: a partition's blocks as they land, or partition by
 * partition, the next ones asked for ahead); each is decoded with Spark's own streams, then aggregated and
 * sorted as Spark's own reader does.
 */
final class ScacheShuffleReader<K, C> implements ShuffleReader<K, C> {
  private final ScacheShuffleHandle<K, ?, C> handle;
  private final ScacheClient client;
  private final int startMapIndex;
  private final int endMapIndex;
  private final int startPartition;
  private final int endPartition;
  private final TaskContext context;
  private final ShuffleReadMetricsReporter metrics;

  ScacheShuffleReader(ScacheShuffleHandle<K, ?, C> handle, ScacheClient client, int startMapIndex, int endMapIndex,
      int startPartition, int endPartition, TaskContext context, ShuffleReadMetricsReporter metrics) {
    this.handle = handle;
    this.client = client;
    this.startMapIndex = startMapIndex;
    this.endMapIndex = endMapIndex;
    this.startPartition = startPartition;
    this.endPartition = endPartition;
    this.context = context;
    this.metrics = metrics;
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public Iterator<Product2<K, C>> read() {
    ShuffleDependency<K, ?, C> dep = (ShuffleDependency<K, ?, C>) handle.dependency();
    SparkEnv env = SparkEnv.get();
    List<ExpectedBlock> expected = ExpectedBlock.from(env.mapOutputTracker().getMapSizesByExecutorId(
        handle.shuffleId(), startMapIndex, endMapIndex, startPartition, endPartition));
    // the blocks of maps Spark ran again on its sort shuffle (SortShuffleRetryWriter) are on executors
    TreeMap<Integer, List<ExpectedBlock>> byReduce = new TreeMap<>();
    TreeMap<Integer, List<ExpectedBlock>> onExecutors = new TreeMap<>();
    for (ExpectedBlock b : expected) {
      (ExecutorHeldBlocks.heldByExecutor(b) ? onExecutors : byReduce).computeIfAbsent(b.reduceId(),
          r -> new ArrayList<>()).add(b);
    }
    byReduce.values().forEach(list -> list.sort((a, b) -> Integer.compare(a.mapIndex(), b.mapIndex())));
    boolean everyMap = startMapIndex == 0 && endMapIndex >= handle.numMaps();
    ReduceBlockSource source = new ReduceBlockSource(client, handle.appId(), handle.shuffleId(), everyMap,
        metrics, byReduce, env.conf().getSizeAsBytes("spark.reducer.maxSizeInFlight", "48m"));
    // a task that fails, is killed or stops reading early leaves parts behind: their buffers go back here
    context.addTaskCompletionListener((TaskCompletionListener) ended -> source.close());

    Iterator<Product2<Object, Object>> records = new RecordIterator(source, byReduce, onExecutors,
        new ExecutorHeldBlocks(env.blockManager().blockStoreClient(), handle.shuffleId(), metrics),
        env.serializerManager(), dep.serializer().newInstance());
    Iterator<Product2<Object, Object>> counted = new InterruptibleIterator<>(context, records);

    Iterator<Product2<K, C>> aggregated;
    if (dep.aggregator().isDefined()) {
      Iterator combined = dep.mapSideCombine()
          ? dep.aggregator().get().combineCombinersByKey((Iterator) counted, context)
          : dep.aggregator().get().combineValuesByKey((Iterator) counted, context);
      aggregated = combined;
    } else {
      aggregated = (Iterator) counted;
    }
    Option<Ordering<K>> ordering = dep.keyOrdering();
    if (ordering.isDefined()) {
      ExternalSorter<K, C, C> sorter = SparkLine.sorter(context, Option.empty(), Option.empty(), ordering,
          dep.serializer());
      return new InterruptibleIterator<>(context, sorter.insertAllAndUpdateMetrics(aggregated));
    }
    return aggregated instanceof InterruptibleIterator ? aggregated : new InterruptibleIterator<>(context, aggregated);
  }

  /** The records of every block, reduce partition by reduce partition, counted in the task's read metrics. */
  private final class RecordIterator extends AbstractIterator<Product2<Object, Object>> {
    private final ReduceBlockSource source;
    private final TreeMap<Integer, List<ExpectedBlock>> byReduce;
    private final java.util.Iterator<Integer> reduces;
    private final Map<Integer, List<ExpectedBlock>> onExecutors;
    private final ExecutorHeldBlocks executorHeld;
    private final SerializerManager serializers;
    private final SerializerInstance serializer;
    private java.util.Iterator<ReduceBlockSource.ReadBlock> blocks = Collections.emptyIterator();
    @SuppressWarnings({"unchecked", "rawtypes"})
    private Iterator<scala.Tuple2<Object, Object>> current = (Iterator) scala.collection.Iterator$.MODULE$.empty();
    private boolean merged;

    RecordIterator(ReduceBlockSource source, TreeMap<Integer, List<ExpectedBlock>> byReduce,
        Map<Integer, List<ExpectedBlock>> onExecutors, ExecutorHeldBlocks executorHeld,
        SerializerManager serializers, SerializerInstance serializer) {
      this.source = source;
      TreeSet<Integer> all = new TreeSet<>(byReduce.keySet());
      all.addAll(onExecutors.keySet());
      this.byReduce = byReduce;
      this.reduces = all.iterator();
      this.onExecutors = onExecutors;
      this.executorHeld = executorHeld;
      this.serializers = serializers;
      this.serializer = serializer;
    }

    @Override
    public boolean hasNext() {
      while (!current.hasNext()) {
        if (!blocks.hasNext()) {
          if (!reduces.hasNext()) {
            if (!merged) {
              merged = true;
              context.taskMetrics().mergeShuffleReadMetrics();
            }
            return false;
          }
          int reduce = reduces.next();
          try {
            blocks = source.read(reduce, byReduce.getOrDefault(reduce, List.of()));
            List<ExpectedBlock> elsewhere = onExecutors.get(reduce);
            if (elsewhere != null) {
              blocks = oneAfterTheOther(executorHeld.read(elsewhere).iterator(), blocks);
            }
          } catch (FetchFailedException e) {
            throw sneaky(e);
          }
          continue;
        }
        ReduceBlockSource.ReadBlock b = blocks.next();
        ByteBuffer data = b.data();
        if (!data.hasRemaining()) {
          continue; // an empty block: nothing to decode (Spark's own reader skips them too)
        }
        InputStream in = serializers.wrapStream(b.block().sparkId(handle.shuffleId()), ByteBufferInputStream.of(data));
        current = serializer.deserializeStream(in).asKeyValueIterator();
      }
      return true;
    }

    @Override
    public Product2<Object, Object> next() {
      if (!hasNext()) {
        throw new java.util.NoSuchElementException();
      }
      metrics.incRecordsRead(1);
      return current.next();
    }
  }

  /** {@code first}'s elements, then {@code then}'s, each asked for only when the one before it was read. */
  private static <T> java.util.Iterator<T> oneAfterTheOther(java.util.Iterator<T> first, java.util.Iterator<T> then) {
    return new java.util.Iterator<>() {
      @Override
      public boolean hasNext() {
        return first.hasNext() || then.hasNext();
      }

      @Override
      public T next() {
        return first.hasNext() ? first.next() : then.next();
      }
    };
  }

  /** Throws a checked FetchFailedException through Scala's iterator methods, as Spark's own fetcher does. */
  @SuppressWarnings("unchecked")
  static <E extends Throwable> RuntimeException sneaky(Throwable e) throws E {
    throw (E) e;
  }
}
