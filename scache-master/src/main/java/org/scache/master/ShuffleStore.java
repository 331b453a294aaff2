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

  List<Stored> load();

  void registered(ShuffleSpec spec);

  /** The shuffle's placement as handed out (again after a re-shuffle moved its reduces). */
  void placed(ShufflePlacement placement);

  void removed(ShuffleKey key);

  void applicationRemoved(String appId);
}
