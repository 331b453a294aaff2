package org.scache.tez;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.tez.runtime.library.common.InputAttemptIdentifier;

/**
 * Where an SCache input hands the segments it reads: Tez's merger for an ordered input
 * ({@link MergingSegments}), held segments streamed in turn for an unordered one ({@link HeldSegments}).
 *
 * @param <R> what the input's reader is made from once every segment is in
 */
interface SegmentSink<R> {
  void start();

  /** One producer attempt's segment: its block (the header already read) and the header's lengths. */
  void add(InputAttemptIdentifier id, ByteBuffer segment, TezBlock header) throws IOException, InterruptedException;

  /** Called once after the last segment. */
  R finish() throws IOException, InterruptedException;

  /** A failure of work done in the background, if there was one. */
  Throwable failure();

  /** Drops everything; the input is closed before it finished. */
  void abandon();
}
