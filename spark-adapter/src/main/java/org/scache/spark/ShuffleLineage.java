package org.scache.spark;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import org.apache.spark.Dependency;
import org.apache.spark.rdd.RDD;
import scala.collection.Iterator;

/**
 * Creates every dependency of an RDD's lineage, as Spark's scheduler does when it builds a job's
 * stages. Creating a shuffle dependency registers the shuffle; done in the thread that submits the
 * job, that registration may run a sampling job and wait for it.
 */
final class ShuffleLineage {
  private ShuffleLineage() {}

  static void createDependencies(RDD<?> rdd) {
    Set<Integer> seen = new HashSet<>();
    Deque<RDD<?>> todo = new ArrayDeque<>();
    todo.push(rdd);
    while (!todo.isEmpty()) {
      RDD<?> next = todo.pop();
      if (!seen.add(next.id())) {
        continue;
      }
      Iterator<Dependency<?>> deps = next.dependencies().iterator();
      while (deps.hasNext()) {
        todo.push(deps.next().rdd());
      }
    }
  }
}
