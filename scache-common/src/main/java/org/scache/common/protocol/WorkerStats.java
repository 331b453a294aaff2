package org.scache.common.protocol;

import java.util.LinkedHashMap;
import java.util.Map;

/** A worker's counters, for {@link GetWorkerStats}. */
public record WorkerStats(Map<String, Long> counters) implements Message {
  public WorkerStats {
    counters = Map.copyOf(counters);
  }

  @Override
  public MessageType type() {
    return MessageType.WORKER_STATS;
  }

  @Override
  public void write(WireWriter out) {
    out.writeInt(counters.size());
    counters.forEach((name, value) -> out.writeString(name).writeLong(value));
  }

  /** Reads what {@link #write} writes. */
  static WorkerStats read(WireReader in) throws MalformedMessageException {
    int n = in.readCount("counters", 2 + 8);
    Map<String, Long> counters = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      counters.put(in.readString("counter name"), in.readLong("counter value"));
    }
    return new WorkerStats(counters);
  }
}
