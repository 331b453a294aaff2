package org.scache.worker.spill;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One append-only file of spilled blocks, written sequentially. It counts the blocks in it that are
 * still live; {@link SpillStore} deletes it when none is and no more are appended. Guarded by the
 * {@link SpillStore}, except positional reads, which may run concurrently with appends.
 */
public final class SpillFile {
  private static final Logger LOG = LoggerFactory.getLogger(SpillFile.class);

  private final Path path;
  private final FileChannel channel;
  private long length;
  private int live;
  private long liveBytes;
  private boolean sealed;
  private boolean deleted;

  private SpillFile(Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
  }

  /** Creates a new file, readable and writable by its owner only. */
  static SpillFile create(Path path) throws IOException {
    FileChannel ch;
    try {
      ch = FileChannel.open(path, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
          StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(
          EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE)));
    } catch (UnsupportedOperationException e) {
      ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }
    return new SpillFile(path, ch);
  }

  Path path() {
    return path;
  }

  long length() {
    return length;
  }

  int live() {
    return live;
  }

  boolean isSealed() {
    return sealed;
  }

  /**
   * Appends {@code buffers} at the end and returns the offset they start at. On failure the file is
   * cut back to its earlier length and sealed.
   */
  long append(ByteBuffer[] buffers) throws IOException {
    long start = length;
    long pos = start;
    try {
      for (ByteBuffer b : buffers) {
        while (b.hasRemaining()) {
          pos += channel.write(b, pos);
        }
      }
    } catch (IOException e) {
      sealed = true;
      try {
        channel.truncate(start);
      } catch (IOException ignored) {
        // the file is sealed; its tail is never read
      }
      throw e;
    }
    length = pos;
    live++;
    liveBytes += pos - start;
    return start;
  }

  /** Fills {@code target} (position to limit) from {@code offset}. */
  void read(long offset, ByteBuffer target) throws IOException {
    long pos = offset;
    while (target.hasRemaining()) {
      int n = channel.read(target, pos);
      if (n < 0) {
        throw new IOException(path + " ends before offset " + pos);
      }
      pos += n;
    }
  }

  /** One block of {@code bytes} in the file is dead; returns the number still live. */
  int release(long bytes) {
    liveBytes -= bytes;
    return --live;
  }

  /** Bytes of the blocks still live in the file. */
  long liveBytes() {
    return liveBytes;
  }

  /** No more blocks are appended. */
  void seal() {
    sealed = true;
  }

  boolean isDeleted() {
    return deleted;
  }

  /** Closes and deletes the file. */
  void delete() {
    if (deleted) {
      return;
    }
    deleted = true;
    try {
      channel.close();
    } catch (IOException e) {
      LOG.debug("closing {}: {}", path, e.toString());
    }
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      LOG.warn("cannot delete spill file {}: {}", path, e.toString());
    }
  }
}
