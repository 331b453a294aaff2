package org.scache.spark;

import java.io.IOException;
import org.apache.spark.TaskContext;
import org.apache.spark.scheduler.MapStatus;
import org.apache.spark.shuffle.ShuffleWriter;
import org.scache.client.ScacheClient;
import org.scache.common.ScacheException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;
import scala.Product2;
import scala.collection.Iterator;

/**
 * The writer of a map of an SCache shuffle that Spark runs again: a task attempt after a failed one, or a map of
 * a stage attempt after a reduce could not read the map's blocks. It writes as Spark's sort shuffle does, into
 * the executor's local files, its map status naming the executor, so that a map whose blocks SCache did not take
 * (every worker refused them: full, or the application's share of each taken) does not meet the same refusal
 * each time Spark runs it, and the job goes on. The map is then declared finished to SCache with no blocks: the
 * master places the shuffle's reduces without waiting for it and drops what an earlier attempt left, and the
 * reduces read this map's output from the executor ({@link ExecutorHeldBlocks}).
 */
final class SortShuffleRetryWriter<K, V> extends ShuffleWriter<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(SortShuffleRetryWriter.class);
  private final ShuffleWriter<K, V> sort;
  private final ScacheClient client;
  private final int shuffleId;
  private final int mapIndex;
  private final int attempt;

  SortShuffleRetryWriter(ShuffleWriter<K, V> sort, ScacheClient client, int shuffleId, TaskContext context,
      long mapTaskId) {
    this.sort = sort;
    this.client = client;
    this.shuffleId = shuffleId;
    this.mapIndex = context.partitionId();
    this.attempt = BlockAttempts.of(mapTaskId);
    LOG.info("map {} of SCache shuffle {} runs again (task attempt {}, stage attempt {}): it writes as Spark's sort "
        + "shuffle, to this executor's files", mapIndex, shuffleId, context.attemptNumber(),
        context.stageAttemptNumber());
  }

  /** Whether a map task is a run again of its map: a later task attempt, or a task of a later stage attempt. */
  static boolean runsAgain(TaskContext context) {
    return context.attemptNumber() > 0 || context.stageAttemptNumber() > 0;
  }

  @Override
  public void write(Iterator<Product2<K, V>> records) throws IOException {
    sort.write(records);
  }

  @Override
  public Option<MapStatus> stop(boolean success) {
    Option<MapStatus> status = sort.stop(success);
    if (success && status.isDefined()) {
      client.mapFinishedAsync(shuffleId, mapIndex, attempt).whenComplete((v, e) -> {
        if (e != null) {
          LOG.warn("SCache was not told that map {} (attempt {}) of shuffle {} wrote as the sort shuffle: {}; its "
              + "reduces read it from this executor all the same", mapIndex, attempt, shuffleId,
              ScacheException.from(e).getMessage());
        }
      });
    }
    return status;
  }

  @Override
  public long[] getPartitionLengths() {
    return sort.getPartitionLengths();
  }
}
