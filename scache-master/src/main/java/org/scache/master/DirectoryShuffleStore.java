package org.scache.master;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
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

/**
 * A lone master's shuffles and placements in its state directory, so that after a restart it places
 * every reduce where it did before and knows each shuffle's maps and reduces when the workers send
 * their finished maps again: {@code shuffles/<application>/<id>.spec} and {@code .placement}, each
 * written to a new file and renamed over the old one. Application ids are base64url-encoded. Read back
 * one file at a time, each within the frame metadata limit (what the master accepted came in a frame,
 * and answers its placement in one), so that a restarted master reads what it kept in bounded memory.
 */
final class DirectoryShuffleStore implements ShuffleStore {
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final String SPEC = ".spec";
  private static final String PLACEMENT = ".placement";

  private final Path root;
  private final StateLimits limits;
  private final SkippedRecords skipped;

  DirectoryShuffleStore(Path stateDir) {
    this(stateDir, StateLimits.DEFAULTS, SkippedRecords.logged());
  }

  /** A store in {@code stateDir} whose records are read within {@code limits}; others go to {@code skipped}. */
  DirectoryShuffleStore(Path stateDir, StateLimits limits, SkippedRecords skipped) {
    this.root = stateDir.resolve("shuffles");
    this.limits = limits;
    this.skipped = skipped;
  }

  @Override
  public List<Stored> load() {
    List<Stored> found = new ArrayList<>();
    load(new Loader() {
      @Override
      public Optional<String> registered(ShuffleSpec spec) {
        found.add(new Stored(spec, Optional.empty()));
        return Optional.empty();
      }

      @Override
      public Optional<String> placed(ShuffleSpec spec, ShufflePlacement placement) {
        found.set(found.size() - 1, new Stored(spec, Optional.of(placement)));
        return Optional.empty();
      }
    }, skipped);
    return found;
  }

  @Override
  public void load(Loader loader, SkippedRecords report) {
    if (!Files.isDirectory(root)) {
      return;
    }
    try (DirectoryStream<Path> apps = Files.newDirectoryStream(root, Files::isDirectory)) {
      for (Path app : apps) {
        try (DirectoryStream<Path> specs = Files.newDirectoryStream(app, "*" + SPEC)) {
          for (Path spec : specs) {
            load(spec, loader, report);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the shuffles kept in " + root, e);
    }
  }

  private void load(Path specFile, Loader loader, SkippedRecords report) {
    Optional<ShuffleSpec> spec = read(specFile, in -> StoredForms.spec(in, limits.maxFrameMetaBytes()), report);
    if (spec.isEmpty()) {
      return;
    }
    Optional<String> refused = loader.registered(spec.get());
    if (refused.isPresent()) {
      report.skip(specFile, "the registration", refused.get());
      return;
    }
    Path placementFile = specFile.resolveSibling(specFile.getFileName().toString().replace(SPEC, PLACEMENT));
    if (Files.exists(placementFile)) {
      read(placementFile, in -> StoredForms.placement(in, limits.maxFrameMetaBytes()), report)
          .flatMap(p -> loader.placed(spec.get(), p))
          .ifPresent(why -> report.skip(placementFile, "the placement", why));
    }
  }

  /** Reads one record of a kept file. */
  private interface RecordReader<T> {
    T read(InputStream in) throws IOException, MalformedMessageException;
  }

  private static <T> Optional<T> read(Path file, RecordReader<T> reader, SkippedRecords report) {
    try (InputStream in = Files.newInputStream(file)) {
      return Optional.of(reader.read(in));
    } catch (MalformedMessageException | IllegalArgumentException e) {
      report.skip(file, "the record", e.getMessage());
    } catch (IOException e) {
      report.skip(file, "the record", "cannot be read: " + e);
    }
    return Optional.empty();
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
