package org.scache.benchmarks.hadoop.netns;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import org.scache.benchmarks.harness.netns.Shell;

/**
 * A small disk of its own for each node worker's spill files: a tmpfs of a fixed size mounted under the run
 * directory, so that a fault can fill it to the last byte ({@link #fill}) and free it again ({@link #free}) without
 * touching the disk anything else writes to. The mounts are visible in every network namespace (they share the
 * mount table) and are taken down on {@link #close}, or by the next run if this one died.
 */
final class SpillDisks implements AutoCloseable {
  private static final String FILLER = "filler";
  private final Map<String, Path> mounts = new LinkedHashMap<>();

  /** Takes down disks a run in {@code root} left mounted (it was killed before it could). */
  static void unmountLeftovers(Path root) {
    if (!Files.isDirectory(root)) {
      return;
    }
    try (var dirs = Files.list(root)) {
      dirs.forEach(d -> Shell.quietly("umount", "-l", d.toString()));
    } catch (IOException e) {
      // nothing mounted there
    }
  }

  /** Mounts a tmpfs of {@code bytes} for {@code node} under {@code root}; returns where. */
  Path mount(Path root, String node, long bytes) throws IOException {
    Path dir = root.resolve(node);
    Files.createDirectories(dir);
    Shell.run("mount", "-t", "tmpfs", "-o", "size=" + bytes, "scache-spill-" + node, dir.toString());
    mounts.put(node, dir);
    return dir;
  }

  boolean hasDisks() {
    return !mounts.isEmpty();
  }

  Path of(String node) {
    Path dir = mounts.get(node);
    if (dir == null) {
      throw new IllegalArgumentException("no spill disk of its own for " + node + "; disks: " + mounts.keySet());
    }
    return dir;
  }

  /** Writes a file over every free byte of {@code node}'s spill disk; returns the bytes written. */
  long fill(String node) throws IOException {
    Path filler = of(node).resolve(FILLER);
    ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
    long written = 0;
    try (FileChannel ch = FileChannel.open(filler, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.APPEND)) {
      for (int size = 1 << 20; size >= 4096; size /= 16) {
        while (true) {
          chunk.clear().limit(size);
          try {
            while (chunk.hasRemaining()) {
              written += ch.write(chunk);
            }
          } catch (IOException full) {
            break;
          }
        }
      }
    }
    return written;
  }

  /** Deletes what {@link #fill} wrote. */
  void free(String node) throws IOException {
    Files.deleteIfExists(of(node).resolve(FILLER));
  }

  @Override
  public void close() {
    for (Path dir : mounts.values()) {
      Shell.quietly("umount", "-l", dir.toString());
    }
    mounts.clear();
  }
}
