package org.scache.master.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class StatusRenderingTest {
  private static final String APP = "app-<script>alert(1)</script>";

  private static ShuffleView view() {
    List<ShuffleView.ReduceView> reduces = List.of(
        new ShuffleView.ReduceView(0, 500, 1000, "w1", 0, Optional.of("w1"), Optional.empty(), 1000, 0),
        new ShuffleView.ReduceView(1, 450, 200, "w2", 0, Optional.of("w1"),
            Optional.of("placed on w2; the framework ran it on w1"), 0, 200),
        new ShuffleView.ReduceView(2, 450, 400, "w2", 1, Optional.empty(), Optional.empty(), 0, 0));
    List<ShuffleView.NodeView> nodes = List.of(new ShuffleView.NodeView("w1", List.of(0), 1, 500, 1000),
        new ShuffleView.NodeView("w2", List.of(1, 2), 2, 900, 600));
    return new ShuffleView(APP, 5, "HASH", 4, 4, 3, 1_000, OptionalLong.of(3_500), OptionalLong.of(9_000),
        Optional.of(new ShuffleView.Prediction("regression", "HASH partitioner: fitted", "heuristic-minheap", 1, 1)),
        reduces, nodes, new ShuffleView.Traffic(3000, 1000, 1000, 200, 2, 1));
  }

  @Test
  void makespan_isTheLargestWorkerLoad_andItsLowerBoundTheLargerOfAnEvenSplitAndTheLargestReduce() {
    ShuffleView v = view();
    assertEquals(900, v.predictedMakespan());
    assertEquals(700, v.predictedLowerBound(), "(500 + 450 + 450) / 2 workers");
    assertEquals(1000, v.actualMakespan());
    assertEquals(1000, v.actualLowerBound(), "the largest reduce");
  }

  @Test
  void text_explainsPredictionPlacementTrafficAndTheReduceOffItsWorker() {
    String t = StatusText.shuffle(view());
    assertTrue(t.contains("predictor: regression - HASH partitioner: fitted"), t);
    assertTrue(t.contains("placed by heuristic-minheap after 1 of 4 maps, 1 reduce(s) per worker at once, 2.5 s "
        + "after submission"), t);
    assertTrue(t.contains("predicted 900 B against a lower bound of 700 B (1.29x); actual 1000 B against 1000 B "
        + "(1.00x)"), t);
    assertTrue(t.contains("prefetched: 2.9 KiB during the map stage, 1000 B after it (75 % during)"), t);
    assertTrue(t.contains("2 of 3 reduces read, 1 off their placed worker"), t);
    assertTrue(t.contains("placed on w2; the framework ran it on w1"), t);
    assertTrue(t.contains("-50%"), "reduce 0: predicted 500 against 1000:\n" + t);
  }

  @Test
  void page_escapesEverythingFromOutside_andDrawsBothCharts() {
    String html = StatusPage.shuffle(view());
    assertFalse(html.contains("<script>"), html);
    assertTrue(html.contains("app-&lt;script&gt;alert(1)&lt;/script&gt;"));
    assertTrue(html.contains("<svg id=\"sizes\"") && html.contains("<svg id=\"loads\""));
    String cluster = StatusPage.cluster(new ClusterView(0, "leader <b>", List.of(new ClusterView.WorkerView("w\"1",
        "h:1", 100, 50, 0, 0, 1200)), 1, List.of(new ClusterView.ShuffleSummary(APP, 5, 4, 4, 3, "maps done",
            "heuristic-minheap",
        "regression"))));
    assertFalse(cluster.contains("<script>"), cluster);
    assertTrue(cluster.contains("shuffle?app=app-%3Cscript%3Ealert%281%29%3C%2Fscript%3E&amp;id=5"), cluster);
    assertTrue(cluster.contains("w&quot;1"), cluster);
    assertTrue(cluster.contains("leader &lt;b&gt;"), cluster);
  }
}
