package org.scache.hadoop.frq;

/** The shuffle a MapReduce job runs on: Hadoop's own, or SCache. */
public enum Shuffle {
  HADOOP("Hadoop shuffle"),
  SCACHE("SCache");

  private final String label;

  Shuffle(String label) {
    this.label = label;
  }

  /** How a report names it. */
  public String label() {
    return label;
  }
}
