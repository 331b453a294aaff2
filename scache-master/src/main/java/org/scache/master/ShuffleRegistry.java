package org.scache.master;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.protocol.Status;

/** Every shuffle the master tracks, by application. All access goes through {@link #with}. */
final class ShuffleRegistry {
  private final Map<ShuffleKey, ShuffleState> shuffles = new HashMap<>();

  /** Runs {@code action} on the shuffle's state, creating it if needed, under the registry's lock. */
  synchronized <T> T with(ShuffleKey key, Function<ShuffleState, T> action) {
    return action.apply(shuffles.computeIfAbsent(key, ShuffleState::new));
  }

  /** Runs {@code action} on an existing shuffle's state; UNKNOWN_SHUFFLE when there is none. */
  synchronized <T> T withExisting(ShuffleKey key, Function<ShuffleState, T> action) {
    ShuffleState s = shuffles.get(key);
    if (s == null) {
      throw new ScacheException(Status.UNKNOWN_SHUFFLE, key + " is not known to the master");
    }
    return action.apply(s);
  }

  /** The shuffle's state if known; only for use inside an action of {@link #with} (same lock). */
  synchronized Optional<ShuffleState> peek(ShuffleKey key) {
    return Optional.ofNullable(shuffles.get(key));
  }

  synchronized boolean remove(ShuffleKey key) {
    return shuffles.remove(key) != null;
  }

  synchronized List<ShuffleKey> removeApplication(String appId) {
    List<ShuffleKey> removed = new ArrayList<>();
    shuffles.keySet().removeIf(k -> {
      if (k.appId().equals(appId)) {
        removed.add(k);
        return true;
      }
      return false;
    });
    return removed;
  }

  synchronized void dropHolder(String workerId) {
    shuffles.values().forEach(s -> s.dropHolder(workerId));
  }
}
