package org.scache.tez;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.tez.common.counters.TezCounters;

/**
 * A finished DAG's counters as its application master wrote them into its history file (Tez's default
 * {@code SimpleHistoryLoggingService}: one JSON entity per event, separated by {@code \u0001}, in the application
 * master's container log directory). For stock programs whose driver keeps its DAG client to itself.
 */
final class DagHistory {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long WAIT_MILLIS = 20_000;

  private DagHistory() {}

  /**
   * The counters of the DAG named {@code dagName} submitted last under {@code logRoot}, once it has finished
   * (waiting for its application master to write them).
   */
  static TezCounters lastFinished(Path logRoot, String dagName) throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    while (true) {
      TezCounters found = read(logRoot, dagName);
      if (found != null) {
        return found;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("no finished DAG named " + dagName + " in the history files under " + logRoot);
      }
      Thread.sleep(200);
    }
  }

  private static TezCounters read(Path logRoot, String dagName) throws IOException {
    String last = null;
    long lastSubmitted = -1;
    Map<String, JsonNode> finished = new HashMap<>();
    for (Path f : ClusterLogFiles.named(logRoot, "history.txt")) {
      for (String entity : ClusterLogFiles.text(f).split("\u0001")) {
        if (entity.isBlank()) {
          continue;
        }
        JsonNode n;
        try {
          n = JSON.readTree(entity);
        } catch (IOException e) {
          continue; // the entity being written now
        }
        JsonNode event = n.path("events").path(0);
        String id = n.path("entity").asText();
        if (event.path("eventtype").asText().equals("DAG_SUBMITTED")
            && n.path("primaryfilters").path("dagName").asText().equals(dagName)
            && event.path("ts").asLong() > lastSubmitted) {
          last = id;
          lastSubmitted = event.path("ts").asLong();
        } else if (event.path("eventtype").asText().equals("DAG_FINISHED")) {
          finished.put(id, n);
        }
      }
    }
    if (last == null || !finished.containsKey(last)) {
      return null;
    }
    TezCounters counters = new TezCounters();
    for (JsonNode group : finished.get(last).path("otherinfo").path("counters").path("counterGroups")) {
      for (JsonNode c : group.path("counters")) {
        counters.findCounter(group.path("counterGroupName").asText(), c.path("counterName").asText())
            .setValue(c.path("counterValue").asLong());
      }
    }
    return counters;
  }
}
