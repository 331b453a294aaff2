package org.scache.common.protocol;

import java.util.Optional;

/**
 * Every answer SCache gives carries one of these codes. Codes are numbered on the wire and never
 * reused; {@link #isTransient()} tells a client whether trying again may succeed.
 */
public enum Status {
  OK(0, false),
  /** The bytes on the connection are not an SCache frame (bad magic); the connection is closed. */
  BAD_FRAME(1, false),
  /** The frame's protocol version is not spoken by this peer. */
  UNSUPPORTED_VERSION(2, false),
  /** The frame's message type is unknown to this peer. */
  UNKNOWN_MESSAGE_TYPE(3, false),
  /** The frame's declared metadata or payload length is above this peer's limit; the connection is closed. */
  FRAME_TOO_LARGE(4, false),
  /** The frame's metadata could not be parsed, or holds values out of range. */
  MALFORMED_MESSAGE(5, false),
  /** The request needs proof of the application's secret and carries none. */
  AUTH_REQUIRED(6, false),
  /** The request's proof does not match the secret registered for its principal. */
  AUTH_FAILED(7, false),
  UNKNOWN_APPLICATION(8, false),
  UNKNOWN_SHUFFLE(9, false),
  UNKNOWN_WORKER(10, false),
  /** The block is not stored where it was asked for, or its holder is gone. */
  BLOCK_NOT_FOUND(11, false),
  /** The worker's reserved memory cannot hold the block. */
  STORE_FULL(12, false),
  /** The block is larger than the worker can ever hold in one piece. */
  BLOCK_TOO_LARGE(13, false),
  /** No answer within the call's timeout (set by the client, never sent). */
  TIMEOUT(14, true),
  /** The peer could not be reached or the connection broke (set by the client, never sent). */
  CONNECTION_FAILED(15, true),
  INTERNAL_ERROR(16, false),
  /** A shuffle was registered again with different parameters. */
  SHUFFLE_CONFLICT(17, false),
  INVALID_ARGUMENT(18, false),
  /** The answer is not available yet (for example no schedule before any worker registered). */
  NOT_READY(19, true),
  /** The peer is busy; back off and try again. */
  RETRY_LATER(20, true),
  /** The peer is shutting down. */
  SHUTTING_DOWN(21, true),
  /** A limit of the peer (connections, blocks, shuffle size, leases) would be passed; the message names it. */
  LIMIT_EXCEEDED(22, false),
  /** This master does not lead (it is a standby, or lost its leadership); find the leader and try it. */
  NOT_LEADER(23, true),
  /** A reduce's input did not complete (some map never finished) within the wait the read allowed. */
  INPUT_INCOMPLETE(30, false);

  private static final Status[] BY_CODE = new Status[32];

  static {
    for (Status s : values()) {
      BY_CODE[s.code] = s;
    }
  }

  private final int code;
  private final boolean isTransient;

  Status(int code, boolean isTransient) {
    this.code = code;
    this.isTransient = isTransient;
  }

  /** The number sent on the wire. */
  public int code() {
    return code;
  }

  /** Whether the same call may succeed when tried again. */
  public boolean isTransient() {
    return isTransient;
  }

  /** The status with this wire code, if any. */
  public static Optional<Status> fromCode(int code) {
    return code >= 0 && code < BY_CODE.length ? Optional.ofNullable(BY_CODE[code]) : Optional.empty();
  }
}
