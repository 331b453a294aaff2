package org.scache.worker.spill;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.scache.common.Checks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's spilled blocks on local disk: appended one after another to large files in the
 * configured directories (a new file goes to the next directory in turn), each with a CRC32C that is
 * checked on every read. Bounded by a capacity in bytes of files on disk; an I/O error on write (a
 * full disk) counts as no room. Files are named {@code scache-spill-<worker>-<pid>-<store>.<n>.data}: at
 * start the files of workers whose process is gone (a crashed worker) are deleted, and so are those
 * of an earlier run of this worker in this process; a file is deleted as soon as none of its blocks
 * is live.
 *
 * <p>A file is at most a quarter of the capacity, so that the capacity always holds several files and
 * one file's dead space never takes all of it; and the file being appended to is sealed (and a new
 * one started) once a quarter of its size is dead, so that it can be compacted like any other
 * ({@link #sparseFiles}) instead of keeping its dead space while it is appended to.
 */
public final class SpillStore implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SpillStore.class);
  private static final Pattern FILE = Pattern.compile("scache-spill-([^-]*)-(\\d+)-\\d+\\.\\d+\\.data");
  /** Numbers the spill stores of this process, so that two never share a file name. */
  private static final AtomicInteger STORES = new AtomicInteger();
  /** A file is at most this share of the capacity. */
  static final int FILES_PER_CAPACITY = 4;
  /** The file being appended to is sealed once this share of its size is dead. */
  static final double ROTATE_DEAD_FRACTION = 0.25;

  /** Where one spilled block lies and its checksum. */
  public record Location(SpillFile file, long offset, int length, int crc) {}

  /** A spilled block's bytes do not match the checksum written with them. */
  public static final class ChecksumMismatchException extends IOException {
    ChecksumMismatchException(String message) {
      super(message);
    }
  }

  private final List<Path> dirs;
  private final long capacity;
  private final long fileBytes;
  private final String prefix;
  private final List<SpillFile> files = new ArrayList<>();
  private SpillFile current;
  private int nextFile;
  private long onDisk;
  private boolean closed;

  /**
   * @param capacity most bytes of files on disk, 0 for no bound
   * @param fileBytes size at which a file is sealed and the next one started (with a capacity, at most
   *     a quarter of it)
   */
  public SpillStore(List<Path> dirs, String workerTag, long capacity, long fileBytes) throws IOException {
    Checks.require(!dirs.isEmpty(), "at least one spill directory is needed");
    Checks.require(capacity >= 0, "spill capacity must not be negative: %s", capacity);
    Checks.require(fileBytes > 0, "spill file size must be positive: %s", fileBytes);
    String tag = sanitize(workerTag);
    for (Path d : dirs) {
      Files.createDirectories(d);
      removeStaleFiles(d, tag);
    }
    this.dirs = List.copyOf(dirs);
    this.capacity = capacity;
    this.fileBytes = capacity > 0 ? Math.max(1, Math.min(fileBytes, capacity / FILES_PER_CAPACITY)) : fileBytes;
    this.prefix = "scache-spill-" + tag + "-" + ProcessHandle.current().pid() + "-" + STORES.incrementAndGet() + ".";
  }

  static String sanitize(String tag) {
    return tag.replaceAll("[^A-Za-z0-9._]", "_");
  }

  /**
   * Deletes the spill files in {@code dir} of any worker whose process is gone, and those of an
   * earlier run of worker {@code tag} in this process.
   */
  static void removeStaleFiles(Path dir, String tag) {
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "scache-spill-*.data")) {
      for (Path f : stream) {
        Matcher m = FILE.matcher(f.getFileName().toString());
        if (!m.matches()) {
          continue;
        }
        long pid = Long.parseLong(m.group(2));
        boolean orphan = ProcessHandle.of(pid).isEmpty();
        boolean earlierRunHere = m.group(1).equals(tag) && pid == ProcessHandle.current().pid();
        if (orphan || earlierRunHere) {
          try {
            Files.deleteIfExists(f);
            LOG.info("removed stale spill file {}", f);
          } catch (IOException e) {
            LOG.warn("cannot remove stale spill file {}: {}", f, e.toString());
          }
        }
      }
    } catch (IOException | NumberFormatException e) {
      LOG.warn("cannot look for stale spill files in {}: {}", dir, e.toString());
    }
  }

  /**
   * Appends the readable bytes of {@code data}; empty when the capacity or the disk has no room for
   * them.
   */
  public synchronized Optional<Location> write(ByteBuf data) {
    Checks.requireState(!closed, "spill store is closed");
    int length = data.readableBytes();
    if (capacity > 0 && onDisk + length > capacity) {
      return Optional.empty();
    }
    CRC32C crc = new CRC32C();
    ByteBuffer[] buffers = data.nioBuffers(data.readerIndex(), length);
    for (ByteBuffer b : buffers) {
      crc.update(b.duplicate());
    }
    try {
      SpillFile file = fileFor(length);
      long offset = file.append(buffers);
      onDisk += length;
      return Optional.of(new Location(file, offset, length, (int) crc.getValue()));
    } catch (IOException e) {
      LOG.warn("cannot spill {} bytes: {}; treating the spill disk as full", length, e.toString());
      if (current != null && current.isSealed()) {
        retire(current);
        current = null;
      }
      return Optional.empty();
    }
  }

  /** The file to append {@code length} bytes to: the current one, or a new one when it is full. */
  private SpillFile fileFor(long length) throws IOException {
    if (current != null && (current.isSealed() || (current.length() > 0 && current.length() + length > fileBytes))) {
      current.seal();
      retire(current);
      current = null;
    }
    if (current == null) {
      Path dir = dirs.get(nextFile % dirs.size());
      current = SpillFile.create(dir.resolve(prefix + nextFile++ + ".data"));
      files.add(current);
    }
    return current;
  }

  /**
   * Reads a spilled block into {@code target} (which must have room for it) and checks it.
   *
   * @throws ChecksumMismatchException when the bytes on disk are not the bytes written
   * @throws IOException when the file cannot be read (for example it was freed meanwhile)
   */
  public void read(Location at, ByteBuf target) throws IOException {
    ByteBuffer window = target.nioBuffer(target.writerIndex(), at.length());
    at.file().read(at.offset(), window.duplicate());
    CRC32C crc = new CRC32C();
    crc.update(window.duplicate());
    if ((int) crc.getValue() != at.crc()) {
      throw new ChecksumMismatchException("the " + at.length() + " bytes at offset " + at.offset() + " of "
          + at.file().path() + " do not match their checksum");
    }
    target.writerIndex(target.writerIndex() + at.length());
  }

  /** The block at {@code at} is no longer needed; its file is deleted once it holds no live block. */
  public synchronized void free(Location at) {
    SpillFile f = at.file();
    if (f.release(at.length()) == 0) {
      if (f == current) {
        current = null;
      }
      retire(f);
    } else if (f == current && f.length() - f.liveBytes() >= ROTATE_DEAD_FRACTION * fileBytes) {
      // the dead space of the file being appended to is given back only once it is sealed and compacted
      f.seal();
      current = null;
    }
  }

  /** Size at which a file is sealed and the next one started (a larger block gets a file of its own). */
  public long fileBytes() {
    return fileBytes;
  }

  private void retire(SpillFile f) {
    if (f.live() == 0 && !f.isDeleted()) {
      f.delete();
      onDisk -= f.length();
      files.remove(f);
    }
  }

  /**
   * Sealed files whose live blocks are at most {@code liveFraction} of their length: the dead space
   * in them is only given back once their live blocks are moved out (the spiller's compaction).
   */
  public synchronized List<SpillFile> sparseFiles(double liveFraction) {
    List<SpillFile> sparse = new ArrayList<>();
    for (SpillFile f : files) {
      if (f != current && f.live() > 0 && f.liveBytes() <= liveFraction * f.length()) {
        sparse.add(f);
      }
    }
    return sparse;
  }

  /** Bytes of live blocks in the spill files (what {@link #bytesOnDisk} would be with no dead space). */
  public synchronized long liveBytes() {
    long live = 0;
    for (SpillFile f : files) {
      live += f.liveBytes();
    }
    return live;
  }

  /** Whether {@code length} more bytes are within the capacity (the disk itself may still be full). */
  public synchronized boolean hasRoomFor(long length) {
    return capacity == 0 || onDisk + length <= capacity;
  }

  /** Bytes of spill files on disk, dead blocks in files not yet deleted included. */
  public synchronized long bytesOnDisk() {
    return onDisk;
  }

  public synchronized int fileCount() {
    return files.size();
  }

  /** The files on disk now (for tests and diagnostics). */
  synchronized List<Path> filePaths() {
    return files.stream().map(SpillFile::path).toList();
  }

  /** Deletes every spill file. */
  @Override
  public synchronized void close() {
    closed = true;
    for (SpillFile f : files) {
      f.delete();
    }
    files.clear();
    current = null;
    onDisk = 0;
  }
}
