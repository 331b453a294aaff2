package org.scache.tez;

import java.util.Map;
import java.util.Optional;
import org.apache.tez.dag.api.EdgeProperty;
import org.apache.tez.dag.api.EdgeProperty.DataMovementType;
import org.apache.tez.dag.library.vertexmanager.ShuffleVertexManager;
import org.apache.tez.runtime.library.input.OrderedGroupedInputLegacy;
import org.apache.tez.runtime.library.input.OrderedGroupedKVInput;
import org.apache.tez.runtime.library.input.UnorderedKVInput;
import org.apache.tez.runtime.library.output.OrderedPartitionedKVOutput;
import org.apache.tez.runtime.library.output.UnorderedPartitionedKVOutput;

/**
 * Whether one edge of a DAG goes through SCache when the configuration switch is on, and if not,
 * why: the output and input SCache puts in place of Tez's, or the reason the edge keeps Tez's
 * shuffle. Decided from the edge's property and from what the consumer vertex's manager is, before
 * anything of the DAG runs.
 *
 * @param scache whether the edge goes through SCache
 * @param output the output class SCache puts on the producer side (when {@code scache})
 * @param input the input class SCache puts on the consumer side (when {@code scache})
 * @param reason why the edge goes through SCache or keeps Tez's shuffle, for the application master's log
 */
record EdgeVerdict(boolean scache, String output, String input, String reason) {

  /** Tez's outputs SCache replaces, with their SCache outputs. */
  private static final Map<String, String> OUTPUTS = Map.of(
      OrderedPartitionedKVOutput.class.getName(), ScacheOrderedPartitionedKVOutput.class.getName(),
      UnorderedPartitionedKVOutput.class.getName(), ScacheUnorderedPartitionedKVOutput.class.getName());
  /** Tez's inputs SCache replaces, by the output they follow, with their SCache inputs. */
  private static final Map<String, Map<String, String>> INPUTS = Map.of(
      OrderedPartitionedKVOutput.class.getName(), Map.of(
          OrderedGroupedKVInput.class.getName(), ScacheOrderedGroupedKVInput.class.getName(),
          OrderedGroupedInputLegacy.class.getName(), ScacheOrderedGroupedInputLegacy.class.getName()),
      UnorderedPartitionedKVOutput.class.getName(), Map.of(
          UnorderedKVInput.class.getName(), ScacheUnorderedKVInput.class.getName()));

  /**
   * What the consumer vertex's manager will be: the one its author set (a class name), or Tez's
   * choice when none is set ({@code null}), which is ShuffleVertexManager only for a vertex with a
   * scatter-gather input and no one-to-one or custom input and no input initializer.
   */
  record ConsumerManager(String userManager, boolean tezPicksShuffleManager, String tezChoiceWhenNot) {
    static ConsumerManager user(String className) {
      return new ConsumerManager(className, false, null);
    }

    static ConsumerManager tezShuffle() {
      return new ConsumerManager(null, true, null);
    }

    static ConsumerManager tezOther(String why) {
      return new ConsumerManager(null, false, why);
    }

    /** Empty when SCache's manager can take the vertex (wrapping Tez's ShuffleVertexManager), else why not. */
    Optional<String> whyNotScache() {
      if (userManager != null) {
        if (userManager.equals(ShuffleVertexManager.class.getName())
            || userManager.equals(ScacheShuffleVertexManager.class.getName())) {
          return Optional.empty();
        }
        return Optional.of("the consumer vertex has its own vertex manager " + userManager
            + ", which is kept and would not understand SCache's producer reports");
      }
      return tezPicksShuffleManager ? Optional.empty() : Optional.of(tezChoiceWhenNot);
    }
  }

  static EdgeVerdict tez(String reason) {
    return new EdgeVerdict(false, null, null, reason);
  }

  /** The verdict for an edge with {@code property} into a vertex whose manager is {@code consumer}. */
  static EdgeVerdict of(EdgeProperty property, ConsumerManager consumer) {
    DataMovementType movement = property.getDataMovementType();
    switch (movement) {
      case BROADCAST:
        return tez("broadcast edge: every consumer task reads every producer's whole output, which Tez's "
            + "shuffle fetches once per node");
      case ONE_TO_ONE:
        return tez("one-to-one edge: each consumer task reads one producer task's output, nothing is shuffled");
      case CUSTOM:
        return tez("custom edge (edge manager " + (property.getEdgeManagerDescriptor() == null ? "none"
            : property.getEdgeManagerDescriptor().getClassName()) + ") routes partitions to tasks by its own rules, "
            + "which SCache's placement does not know");
      case SCATTER_GATHER:
        break;
      default:
        return tez("data movement " + movement + " is not one SCache knows");
    }
    if (property.getDataSourceType() != EdgeProperty.DataSourceType.PERSISTED) {
      return tez("data source " + property.getDataSourceType() + ": SCache serves persisted edges only");
    }
    if (property.getSchedulingType() != EdgeProperty.SchedulingType.SEQUENTIAL) {
      return tez("scheduling " + property.getSchedulingType() + ": SCache serves sequential edges only");
    }
    String outputClass = property.getEdgeSource().getClassName();
    String inputClass = property.getEdgeDestination().getClassName();
    String output = OUTPUTS.get(outputClass);
    if (output == null) {
      return tez("output " + outputClass + " is not one SCache replaces (" + String.join(", ", OUTPUTS.keySet())
          + ")");
    }
    String input = INPUTS.get(outputClass).get(inputClass);
    if (input == null) {
      return tez("input " + inputClass + " after output " + outputClass + " is not one SCache replaces ("
          + String.join(", ", INPUTS.get(outputClass).keySet()) + ")");
    }
    Optional<String> manager = consumer.whyNotScache();
    if (manager.isPresent()) {
      return tez(manager.get());
    }
    return new EdgeVerdict(true, output, input, "replaced by " + simpleName(output) + " -> " + simpleName(input));
  }

  /** Whether {@code className} is one of SCache's edge classes (the DAG was built with ScacheTezDag). */
  static boolean isScacheClass(String className) {
    return OUTPUTS.containsValue(className)
        || INPUTS.values().stream().anyMatch(m -> m.containsValue(className));
  }

  private static String simpleName(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }
}
