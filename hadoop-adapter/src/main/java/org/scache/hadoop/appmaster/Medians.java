package org.scache.hadoop.appmaster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** The application master's median of a job's measured figures: the upper one of an even count. */
final class Medians {
  private Medians() {}

  /** The median of {@code values}, which must not be empty; they are not changed. */
  static <T extends Comparable<? super T>> T of(Collection<T> values) {
    List<T> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }
}
