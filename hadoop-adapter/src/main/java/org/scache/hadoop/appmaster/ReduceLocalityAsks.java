package org.scache.hadoop.appmaster;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.ResourceRequest;

/**
 * Holds the reduces' container asks to their nodes, or lets them go. YARN aggregates a job's asks by
 * priority and location: one ask per node, one per rack, one off-switch ({@code *}), each with a count.
 * Hadoop's allocator sends them all with {@code relaxLocality=true}, so the scheduler may give a reduce a
 * container on any node of the rack, then anywhere, once the node has missed enough chances; the
 * application master can only return it. Sending the rack and off-switch asks of the reduce priority with
 * {@code relaxLocality=false} makes the scheduler give containers only on the nodes asked for.
 *
 * <p>{@link #apply} is called with the allocator's outgoing asks just before each request to the
 * ResourceManager. It remembers the latest rack and off-switch ask of the reduce priority (the allocator
 * keeps one object per location and sends it again only when its count changes), sets their flag, and
 * sends again those whose flag changed since they were last sent. Not thread-safe: the allocator's thread.
 */
public final class ReduceLocalityAsks {
  /** The allocator's current ask for one location, and the flag the ResourceManager last got for it. */
  private static final class Tracked {
    ResourceRequest ask;
    boolean sentRelaxed;
  }

  private final Priority reducePriority;
  private final Map<String, Tracked> byLocation = new HashMap<>();

  public ReduceLocalityAsks(Priority reducePriority) {
    this.reducePriority = reducePriority;
  }

  /**
   * Sets {@code relaxLocality} of the reduce priority's rack and off-switch asks to {@code !strict}, adding
   * to {@code outgoing} every such ask whose flag the ResourceManager does not have yet. {@code outgoing}
   * orders asks by priority, location and capability (not by the flag), so a flag is set in place.
   */
  public void apply(Set<ResourceRequest> outgoing, boolean strict) {
    boolean relaxed = !strict;
    for (ResourceRequest r : outgoing) {
      if (reducePriority.equals(r.getPriority()) && !namesNode(r.getResourceName())) {
        Tracked t = byLocation.computeIfAbsent(r.getResourceName() + " " + r.getCapability(), k -> new Tracked());
        t.ask = r;
        r.setRelaxLocality(relaxed);
        t.sentRelaxed = relaxed;
      }
    }
    for (Tracked t : byLocation.values()) {
      if (t.sentRelaxed != relaxed) {
        t.ask.setRelaxLocality(relaxed);
        outgoing.remove(t.ask);
        outgoing.add(t.ask);
        t.sentRelaxed = relaxed;
      }
    }
  }

  /** Rack names are network paths ({@code /rack}), the off-switch ask is {@code *}; any other name is a node. */
  private static boolean namesNode(String resourceName) {
    return !ResourceRequest.ANY.equals(resourceName) && !resourceName.startsWith("/");
  }
}
