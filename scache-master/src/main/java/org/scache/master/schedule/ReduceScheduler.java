package org.scache.master.schedule;

import java.util.List;
import org.scache.master.predict.ReducePrediction;

/** Places the reduce tasks of a stage on hosts before they launch (pre-scheduling). */
public interface ReduceScheduler {

  /**
   * Places every reduce on one of {@code hosts}.
   *
   * @param mapCount the number of map tasks of the shuffle, at least 1
   * @param hosts the candidate hosts (worker ids), distinct; their order breaks ties
   * @param reduces the predicted reduces, distinct reduce ids
   */
  HostPlacement schedule(int mapCount, List<String> hosts, List<ReducePrediction> reduces);
}
