package org.scache.tez;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.tez.common.counters.TaskCounter;
import org.apache.tez.runtime.api.InputContext;
import org.apache.tez.runtime.library.common.InputAttemptIdentifier;

/**
 * The segments of an unordered input, held until its reader streams them one after the other: in the
 * task's heap up to the memory Tez gave the input, beyond that in files of the task's work directory
 * (as Tez's unordered fetchers put inputs in memory or on disk). Empty segments are dropped.
 */
final class HeldSegments implements SegmentSink<List<HeldSegments.Segment>> {
  /** One producer attempt's IFile segment, in memory or in a file. */
  record Segment(InputAttemptIdentifier id, byte[] memory, Path file, long length) {}

  private final InputContext context;
  private final long memoryLimit;
  private final Path spillDir;
  private final List<Segment> segments = new ArrayList<>();
  private long held;

  HeldSegments(InputContext context, long memoryLimit) {
    this.context = context;
    this.memoryLimit = memoryLimit;
    this.spillDir = Path.of(context.getWorkDirs()[0], "scache-input-" + context.getUniqueIdentifier());
  }

  @Override
  public void start() {}

  @Override
  public synchronized void add(InputAttemptIdentifier id, ByteBuffer segment, TezBlock header) throws IOException {
    long length = header.partLength();
    if (length == 0) {
      return;
    }
    if (held + length <= memoryLimit) {
      byte[] copy = new byte[(int) length];
      segment.duplicate().get(copy);
      segments.add(new Segment(id, copy, null, length));
      held += length;
      context.getCounters().findCounter(TaskCounter.SHUFFLE_BYTES_TO_MEM).increment(length);
      return;
    }
    Files.createDirectories(spillDir);
    Path file = spillDir.resolve("segment-" + segments.size());
    try (OutputStream out = Files.newOutputStream(file)) {
      Channels.newChannel(out).write(segment.duplicate());
    }
    segments.add(new Segment(id, null, file, length));
    context.getCounters().findCounter(TaskCounter.SHUFFLE_BYTES_TO_DISK).increment(length);
  }

  @Override
  public synchronized List<Segment> finish() {
    return Collections.unmodifiableList(new ArrayList<>(segments));
  }

  @Override
  public Throwable failure() {
    return null;
  }

  @Override
  public synchronized void abandon() {
    segments.clear();
    deleteFiles();
  }

  /** Removes the segment files; the reader calls it when it is closed. */
  void deleteFiles() {
    if (!Files.isDirectory(spillDir)) {
      return;
    }
    try (var files = Files.list(spillDir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Files.deleteIfExists(f);
      }
      Files.deleteIfExists(spillDir);
    } catch (IOException e) {
      // the task's work directory goes with the container
    }
  }
}
