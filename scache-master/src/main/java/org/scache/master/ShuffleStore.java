package org.scache.master;

import java.util.List;
import java.util.Optional;
import org.scache.common.ShuffleKey;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;

/**
 * Where a master keeps every registered shuffle and the placement it handed out, so that a master
 * elected after it places each reduce where the first one did. Block sizes and finished maps are not
 * kept: the workers send them again to a new leader.
 */
interface ShuffleStore {
  /** Keeps nothing: a master without ZooKeeper. */
  ShuffleStore NONE = new ShuffleStore() {
    @Override
    public List<Stored> load() {
      return List.of();
    }

    @Override
    public void registered(ShuffleSpec spec) {}

    @Override
    public void placed(ShufflePlacement placement) {}

    @Override
    public void removed(ShuffleKey key) {}

    @Override
    public void applicationRemoved(String appId) {}
  };

  /** A kept shuffle and its placement, if it had one. */
  record Stored(ShuffleSpec spec, Optional<ShufflePlacement> placement) {}

  /** Every kept shuffle, with its placement. */
  List<Stored> load();

  /** What a master does with each kept shuffle as a store reads it back, one at a time. */
  interface Loader {
    /** Takes over a kept registration: empty when it does, else why not (its placement is then not read). */
    Optional<String> registered(ShuffleSpec spec);

    /** Takes over the placement kept for a shuffle {@link #registered} took: empty when it does, else why not. */
    Optional<String> placed(ShuffleSpec spec, ShufflePlacement placement);
  }

  /**
   * Reads back every kept shuffle into {@code loader}, reporting to {@code skipped} each record the loader does not
   * take or that cannot be read. A store whose records may be large reads them one at a time, within the limits it
   * was given, and reads no placement of a shuffle the loader did not take.
   */
  default void load(Loader loader, SkippedRecords skipped) {
    for (Stored s : load()) {
      String what = "shuffle " + s.spec().shuffleId() + " of " + s.spec().appId();
      Optional<String> refused = loader.registered(s.spec());
      if (refused.isPresent()) {
        skipped.skip("the kept shuffles", what, refused.get());
      } else {
        s.placement().flatMap(p -> loader.placed(s.spec(), p))
            .ifPresent(why -> skipped.skip("the kept shuffles", "the placement of " + what, why));
      }
    }
  }

  void registered(ShuffleSpec spec);

  /** The shuffle's placement as handed out (again after a re-shuffle moved its reduces). */
  void placed(ShufflePlacement placement);

  void removed(ShuffleKey key);

  void applicationRemoved(String appId);
}
