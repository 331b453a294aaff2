package org.scache.benchmarks.hadoop;

/** The shuffle a TeraSort job runs on. */
enum Shuffle {
  HADOOP("Hadoop shuffle"),
  SCACHE("SCache");

  private final String label;

  Shuffle(String label) {
    this.label = label;
  }

  String label() {
    return label;
  }
}
