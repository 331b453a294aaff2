package org.scache.tez;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.tez.common.counters.TezCounters;
import org.apache.tez.dag.api.TezConfiguration;
import org.apache.tez.examples.OrderedWordCount;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.WorkerInfo;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;

/**
 * tez-examples' OrderedWordCount, switched over by configuration, on workers that hold 24 blocks each, 12 of
 * them for one user: the Tokenizer → Summation edge (1 × 20 blocks) goes through SCache, its producer putting
 * what its node's worker cannot hold on the other worker; the Summation → Sorter edge (20 more blocks, more
 * than the room left) stays on Tez's shuffle, and the application master says why. The output is Tez's.
 */
class WideShuffleTezIT {
  private static final int SUMMATIONS = 20;
  private static MiniScacheTezCluster cluster;
  private static Path words;
  private static List<String> onTez;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = new MiniScacheTezCluster("tez-wide", 2, 600,
        conf -> conf.setInt(ScacheOptions.WORKER_BLOCKS_MAX.key(), 24));
    words = cluster.writeWords("words", 1, 2_000, 500, 8, 3);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static TezConfiguration conf(boolean switched) {
    return cluster.clientConf(switched);
  }

  /** OrderedWordCount's output lines on Tez's shuffle, run once for the tests that compare with it. */
  private static List<String> onTez() throws Exception {
    if (onTez == null) {
      cluster.run(conf(false), OrderedWordCount.createDAG(conf(false), words.toString(), out("tez"), SUMMATIONS, true,
          false, "wide-owc-on-tez"));
      onTez = MiniScacheTezCluster.sortedLines(out("tez"));
    }
    return onTez;
  }

  private static String out(String name) {
    return cluster.workDir().resolve("out-" + name).toString();
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void orderedWordCountWiderThanTheWorkers_firstEdgeSpreadsOverBoth_secondStaysOnTez_sameOutput()
      throws Exception {
    List<String> expected = onTez();
    Map<String, Map<String, Long>> before = cluster.statsByWorker();
    TezCounters scache = cluster.run(conf(true), OrderedWordCount.createDAG(conf(true), words.toString(),
        out("scache"), SUMMATIONS, true, false, "wide-owc")).getDAGCounters();

    assertTrue(!expected.isEmpty());
    assertEquals(expected, MiniScacheTezCluster.sortedLines(out("scache")), "Tez's output, line for line");
    assertEquals(SUMMATIONS, scache.findCounter(ScacheTezCounter.BLOCKS_PUT).getValue(),
        "the Tokenizer's one task put a block per Summation task, and nothing else went through SCache");
    assertEquals(SUMMATIONS, scache.findCounter(ScacheTezCounter.BLOCKS_READ).getValue());
    Map<String, Map<String, Long>> after = cluster.statsByWorker();
    List<Long> putOnEach = new java.util.ArrayList<>();
    for (String worker : after.keySet()) {
      putOnEach.add(after.get(worker).get("put.blocks") - before.get(worker).get("put.blocks"));
    }
    putOnEach.sort(null);
    assertEquals(List.of(8L, 12L), putOnEach, "the Tokenizer's worker held its 12, the other worker the rest");

    List<String> edges = cluster.containerLogLines("SCache: DAG wide-owc [");
    assertEquals(1, edges.stream().filter(l -> l.contains("Tokenizer -> Summation")
        && l.contains(" goes through SCache as shuffle ")).count(), edges::toString);
    assertEquals(1, edges.stream().filter(l -> l.contains("Summation -> Sorter") && l.contains("stays on Tez's "
        + "shuffle: it does not fit in SCache with the DAG's other edges: its 20 maps × 1 reduces put 20 blocks"))
        .count(), edges::toString);
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void orderedWordCountOnWorkersFilledBeforeItsProducersRun_producerWritesAsTezShuffle_consumersReadIt_sameOutput()
      throws Exception {
    ScacheConf master = ScacheConf.empty().with(ScacheOptions.CLIENT_MASTER_ADDRESS,
        conf(true).get(ScacheOptions.CLIENT_MASTER_ADDRESS.key()));
    List<ScacheClient> others = new ArrayList<>();
    try (ScacheClient probe = ScacheClient.create(master, "application_probe_0002", new byte[] {1})) {
      // two other applications take all that both workers hold (2 × 24 blocks); the Tokenizer -> Summation edge,
      // whose producers are counted only when the DAG runs, is kept on SCache all the same
      WorkerInfo worker = probe.workers().get(0);
      ScacheConf fill = master.with(ScacheOptions.CLIENT_WORKER_ADDRESS, worker.host() + ":" + worker.port());
      for (int app = 0; app < 2; app++) {
        ScacheClient other = ScacheClient.create(fill, "application_fill_100" + app, new byte[] {2});
        others.add(other);
        other.registerApplication();
        for (int block = 0; block < 24; block++) {
          other.putBlock(new BlockId(other.appId(), 0, block, 0, 0), new byte[] {7});
        }
      }
      TezCounters scache = cluster.run(conf(true), OrderedWordCount.createDAG(conf(true), words.toString(),
          out("scache-full"), SUMMATIONS, true, false, "full-owc")).getDAGCounters();

      assertEquals(onTez(), MiniScacheTezCluster.sortedLines(out("scache-full")), "Tez's output, line for line");
      assertEquals(1, scache.findCounter(ScacheTezCounter.OUTPUTS_WRITTEN_AS_TEZ).getValue(),
          "every worker refused the Tokenizer's blocks: its output stayed where Tez's shuffle serves it");
      assertEquals(SUMMATIONS, scache.findCounter(ScacheTezCounter.OUTPUTS_READ_FROM_NODE_MANAGERS).getValue(),
          "each Summation task read its partition from the Tokenizer's node");
      assertEquals(0, scache.findCounter(ScacheTezCounter.BLOCKS_PUT).getValue());
      List<String> edges = cluster.containerLogLines("SCache: DAG full-owc [");
      assertEquals(1, edges.stream().filter(l -> l.contains("Tokenizer -> Summation")
          && l.contains(" goes through SCache as shuffle ")).count(), edges::toString);
    } finally {
      for (ScacheClient other : others) {
        other.removeApplication();
        other.close();
      }
    }
  }
}
