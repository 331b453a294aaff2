package org.scache.common.protocol;

import java.util.Optional;

/**
 * The one-byte message type of every frame. Requests are below 128, answers from 128 up; ids are
 * never reused. Only the types marked {@code payload} may carry bulk bytes after their metadata.
 */
public enum MessageType {
  REGISTER_WORKER(1),
  HEARTBEAT(2),
  REPORT_BLOCKS(3),
  REGISTER_APPLICATION(4),
  REGISTER_SHUFFLE(5),
  MAP_FINISHED(6),
  GET_SCHEDULE_RESULT(7),
  UNREGISTER_SHUFFLE(8),
  REMOVE_APPLICATION(9),
  LIST_WORKERS(10),
  FETCH_APP_SECRET(11),
  LOCATE_BLOCKS(12),
  PUT_BLOCK(20, true),
  GET_BLOCK(21),
  GET_REDUCE_INPUT(22),
  FETCH_BLOCKS(23),
  GET_WORKER_STATS(24),
  // prediction and pre-scheduling (40-59)
  REPORT_SAMPLES(40),
  SHUFFLE_SCHEDULED(41),
  MAP_OUTPUT_READY(42),
  // local shared-memory access (60-69)
  OPEN_LOCAL(60),
  LEASE_MEMORY(61),
  COMMIT_LEASED(62),
  RELEASE_LEASE(63),
  PIN_BLOCK(64),
  UNPIN(65),
  // reserve, spill and read-once (70-79)
  REPORT_ROUNDS(70),
  ROUNDS_INCOMPLETE(71),
  REDUCE_COMMITTED(72),
  REPORT_LOST_BLOCKS(73),
  // observation (80-89)
  REPORT_WORKER_ACTIVITY(80),

  ACK(128),
  WORKER_REGISTERED(129),
  HEARTBEAT_ACK(130),
  SCHEDULE_RESULT(131),
  WORKERS(132),
  APP_SECRET(133),
  BLOCK_LOCATIONS(134),
  BLOCK_DATA(135, true),
  BLOCKS_DATA(136, true),
  WORKER_STATS(137),
  /** Sent unasked by the accepting side when a connection opens, with its {@link ChannelBinding} nonce. */
  SERVER_HELLO(138),
  // local shared-memory access (160-169)
  LOCAL_SEGMENTS(160),
  MEMORY_LEASE(161),
  PINNED_BLOCK(162),
  ERROR(255);

  private static final MessageType[] BY_ID = new MessageType[256];

  static {
    for (MessageType t : values()) {
      BY_ID[t.id] = t;
    }
  }

  private final int id;
  private final boolean payload;

  MessageType(int id) {
    this(id, false);
  }

  MessageType(int id, boolean payload) {
    this.id = id;
    this.payload = payload;
  }

  public int id() {
    return id;
  }

  /** Whether frames of this type may carry a payload after the metadata. */
  public boolean carriesPayload() {
    return payload;
  }

  /** Whether this type answers a request. */
  public boolean isResponse() {
    return id >= 128;
  }

  public static Optional<MessageType> fromId(int id) {
    return id >= 0 && id < 256 ? Optional.ofNullable(BY_ID[id]) : Optional.empty();
  }
}
