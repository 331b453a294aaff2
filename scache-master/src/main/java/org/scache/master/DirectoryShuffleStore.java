package org.scache.master;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.scache.common.ShuffleKey;
import org.scache.common.protocol.MalformedMessageException;
import org.scache.common.protocol.StoredForms;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A lone master's shuffles and placements in its state directory, so that after a restart it places
 * every reduce where it did before and knows each shuffle's maps and reduces when the workers send
 * their finished maps again: {@code shuffles/<application>/<id>.spec} and {@code .placement}, each
 * written to a new file and renamed over the old one. Application ids are base64url-encoded.
 */
final class DirectoryShuffleStore implements ShuffleStore {
  private static final Logger LOG = LoggerFactory.getLogger(DirectoryShuffleStore.class);
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final String SPEC = ".spec";
  private static final String PLACEMENT = ".placement";

  private final Path root;

  DirectoryShuffleStore(Path stateDir) {
    this.root = stateDir.resolve("shuffles");
  }

  @Override
  public List<Stored> load() {
    List<Stored> found = new ArrayList<>();
    if (!Files.isDirectory(root)) {
      return found;
    }
    try (Stream<Path> apps = Files.list(root)) {
      for (Path app : apps.filter(Files::isDirectory).toList()) {
        try (Stream<Path> files = Files.list(app)) {
          for (Path spec : files.filter(p -> p.getFileName().toString().endsWith(SPEC)).toList()) {
            Path placement = spec.resolveSibling(spec.getFileName().toString().replace(SPEC, PLACEMENT));
            try {
              found.add(new Stored(StoredForms.spec(Files.readAllBytes(spec)), Files.exists(placement)
                  ? Optional.of(StoredForms.placement(Files.readAllBytes(placement))) : Optional.empty()));
            } catch (MalformedMessageException e) {
              LOG.warn("ignoring {} kept in the state directory: {}", spec, e.getMessage());
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the shuffles kept in " + root, e);
    }
    return found;
  }

  @Override
  public void registered(ShuffleSpec spec) {
    Path file = file(spec.appId(), spec.shuffleId(), SPEC);
    if (!Files.exists(file)) {
      write(file, StoredForms.spec(spec));
    }
  }

  @Override
  public void placed(ShufflePlacement placement) {
    write(file(placement.appId(), placement.shuffleId(), PLACEMENT), StoredForms.placement(placement));
  }

  @Override
  public void removed(ShuffleKey key) {
    try {
      Files.deleteIfExists(file(key.appId(), key.shuffleId(), PLACEMENT));
      Files.deleteIfExists(file(key.appId(), key.shuffleId(), SPEC));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot forget " + key + " in " + root, e);
    }
  }

  @Override
  public void applicationRemoved(String appId) {
    Path dir = root.resolve(name(appId));
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot forget the shuffles of " + appId + " in " + root, e);
    }
  }

  private Path file(String appId, int shuffleId, String suffix) {
    return root.resolve(name(appId)).resolve(shuffleId + suffix);
  }

  private static void write(Path file, byte[] data) {
    try {
      Files.createDirectories(file.getParent());
      Path tmp = file.resolveSibling(file.getFileName() + ".new");
      Files.write(tmp, data);
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep " + file, e);
    }
  }

  private static String name(String appId) {
    return B64.encodeToString(appId.getBytes(StandardCharsets.UTF_8));
  }
}
