package org.scache.common.shuffle;

/**
 * The attempt of a map whose output a reader takes, as the reader's framework knows it (Spark's map output
 * tracker, for example): with every such attempt named, a worker holding all their blocks of a reduce gives the
 * reduce's input without asking the master where the blocks are.
 */
public record FinalAttempt(int mapId, int attempt) {
  public FinalAttempt {
    if (mapId < 0 || attempt < 0) {
      throw new IllegalArgumentException("map id and attempt must not be negative: " + mapId + "/" + attempt);
    }
  }
}
