package org.scache.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.HashPartitioner;
import org.apache.spark.Partitioner;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.scache.common.config.ScacheOptions;
import org.scache.common.shuffle.PartitionerKind;

/** The Spark adapter's configuration, partitioner kinds, stage grouping and block attempts, without Spark running. */
class SparkAdapterUnitTest {

  @Test
  void sparkConf_passesScacheKeysThroughWithoutTheirSparkPrefix_andIgnoresOthers() {
    SparkConf spark = new SparkConf(false).set("spark.scache.client.master.address", "m:1")
        .set("spark.scache.client.request.timeout", "7s").set("spark.scache.placement.wait", "1s")
        .set("spark.executor.memory", "1g");
    SparkScacheConf conf = new SparkScacheConf(spark);
    assertEquals("m:1", conf.scache().get(ScacheOptions.CLIENT_MASTER_ADDRESS));
    assertEquals(java.time.Duration.ofSeconds(7), conf.scache().get(ScacheOptions.CLIENT_REQUEST_TIMEOUT));
    assertEquals(java.time.Duration.ofSeconds(1), conf.get(SparkScacheOptions.PLACEMENT_WAIT));
    assertEquals(java.time.Duration.ofSeconds(5), conf.get(SparkScacheOptions.START_CHECK_TIMEOUT), "the default");
  }

  @Test
  void workerAddress_onYarn_isTheAuxServicesMetadata_elsewhereTheHostAndWorkerPort() {
    SparkScacheConf conf = new SparkScacheConf(new SparkConf(false).set("spark.scache.worker.rpc.port", "17777"));
    String published = Base64.getEncoder().encodeToString("nm-7:17021".getBytes(StandardCharsets.UTF_8));
    assertEquals("nm-7:17021", conf.workerAddress("host-a", Map.of("NM_AUX_SERVICE_scache", published)));
    assertEquals("host-a:17777", conf.workerAddress("host-a", Map.of()));
    assertEquals(Optional.empty(), SparkScacheConf.auxServiceWorker("scache", Map.of("NM_AUX_SERVICE_scache", "")));
  }

  @Test
  void partitionerKinds_hashAndSqlPassThroughAreHash_rangeIsRange_othersCustom() {
    assertEquals(PartitionerKind.HASH, PartitionerKinds.of(new HashPartitioner(3)));
    assertEquals(PartitionerKind.CUSTOM, PartitionerKinds.of(new Partitioner() {
      @Override
      public int numPartitions() {
        return 2;
      }

      @Override
      public int getPartition(Object key) {
        return 0;
      }
    }));
  }

  @Test
  void shuffleStages_equalPartitionersOrOneSqlExecution_shareAStage_othersDoNot() {
    ShuffleStages stages = new ShuffleStages();
    int join = stages.stageOf(new HashPartitioner(6), Optional.empty());
    assertEquals(join, stages.stageOf(new HashPartitioner(6), Optional.empty()), "co-partitioned RDDs");
    assertNotEquals(join, stages.stageOf(new HashPartitioner(7), Optional.empty()));
    int sql = stages.stageOf(new HashPartitioner(8), Optional.of("3"));
    assertEquals(sql, stages.stageOf(new HashPartitioner(8), Optional.of("3")), "one query's exchanges");
    assertNotEquals(sql, stages.stageOf(new HashPartitioner(8), Optional.of("4")));
  }

  @Test
  void blockAttempts_areTaskAttemptIds_thatFitAnInt() {
    assertEquals(123, BlockAttempts.of(123L));
    assertThrows(IllegalStateException.class, () -> BlockAttempts.of(1L << 31));
  }
}
