package org.scache.common.protocol;

import java.util.Optional;

/**
 * The one-byte message type of every frame. Requests are below 128, answers from 128 up; ids are
 * never reused. Only the types marked {@code payload} may carry bulk bytes after their metadata.
 */
public enum MessageType {
  REGISTER_WORKER(1, MaySend.CLUSTER),
  HEARTBEAT(2, MaySend.CLUSTER),
  REPORT_BLOCKS(3, MaySend.CLUSTER),
  REGISTER_APPLICATION(4, MaySend.REGISTERING_APPLICATION),
  REGISTER_SHUFFLE(5, MaySend.APPLICATION_OR_CLUSTER),
  MAP_FINISHED(6, MaySend.APPLICATION_OR_CLUSTER),
  GET_SCHEDULE_RESULT(7, MaySend.APPLICATION_OR_CLUSTER),
  UNREGISTER_SHUFFLE(8, MaySend.APPLICATION_OR_CLUSTER),
  REMOVE_APPLICATION(9, MaySend.APPLICATION_OR_CLUSTER),
  LIST_WORKERS(10, MaySend.ANYONE),
  FETCH_APP_SECRET(11, MaySend.CLUSTER),
  LOCATE_BLOCKS(12, MaySend.APPLICATION_OR_CLUSTER),
  PUT_BLOCK(20, MaySend.APPLICATION_OR_CLUSTER, true),
  GET_BLOCK(21, MaySend.APPLICATION_OR_CLUSTER),
  GET_REDUCE_INPUT(22, MaySend.APPLICATION_OR_CLUSTER),
  FETCH_BLOCKS(23, MaySend.CLUSTER),
  GET_WORKER_STATS(24, MaySend.ANYONE),
  // prediction and pre-scheduling (40-59)
  REPORT_SAMPLES(40, MaySend.APPLICATION_OR_CLUSTER),
  SHUFFLE_SCHEDULED(41, MaySend.CLUSTER),
  MAP_OUTPUT_READY(42, MaySend.CLUSTER),
  // local shared-memory access (60-69)
  OPEN_LOCAL(60, MaySend.APPLICATION_OR_CLUSTER),
  LEASE_MEMORY(61, MaySend.APPLICATION_OR_CLUSTER),
  COMMIT_LEASED(62, MaySend.APPLICATION_OR_CLUSTER),
  RELEASE_LEASE(63, MaySend.HOLDER),
  PIN_BLOCK(64, MaySend.APPLICATION_OR_CLUSTER),
  UNPIN(65, MaySend.HOLDER),
  PIN_REDUCE_INPUT(66, MaySend.APPLICATION_OR_CLUSTER),
  PIN_REDUCE_INPUT_PART(67, MaySend.APPLICATION_OR_CLUSTER),
  // reserve, spill and read-once (70-79)
  REPORT_ROUNDS(70, MaySend.CLUSTER),
  ROUNDS_INCOMPLETE(71, MaySend.CLUSTER),
  REDUCE_COMMITTED(72, MaySend.APPLICATION_OR_CLUSTER),
  REPORT_LOST_BLOCKS(73, MaySend.CLUSTER),
  // observation (80-89)
  REPORT_WORKER_ACTIVITY(80, MaySend.CLUSTER),

  ACK(128, MaySend.NOBODY),
  WORKER_REGISTERED(129, MaySend.NOBODY),
  HEARTBEAT_ACK(130, MaySend.NOBODY),
  SCHEDULE_RESULT(131, MaySend.NOBODY),
  WORKERS(132, MaySend.NOBODY),
  APP_SECRET(133, MaySend.NOBODY),
  BLOCK_LOCATIONS(134, MaySend.NOBODY),
  BLOCK_DATA(135, MaySend.NOBODY, true),
  BLOCKS_DATA(136, MaySend.NOBODY, true),
  WORKER_STATS(137, MaySend.NOBODY),
  /** Sent unasked by the accepting side when a connection opens, with its {@link ChannelBinding} nonce. */
  SERVER_HELLO(138, MaySend.NOBODY),
  // local shared-memory access (160-169)
  LOCAL_SEGMENTS(160, MaySend.NOBODY),
  MEMORY_LEASE(161, MaySend.NOBODY),
  PINNED_BLOCK(162, MaySend.NOBODY),
  PINNED_REDUCE_INPUT(163, MaySend.NOBODY, true),
  ERROR(255, MaySend.NOBODY);

  private static final MessageType[] BY_ID = new MessageType[256];

  static {
    for (MessageType t : values()) {
      BY_ID[t.id] = t;
    }
  }

  private final int id;
  private final MaySend maySend;
  private final boolean payload;

  MessageType(int id, MaySend maySend) {
    this(id, maySend, false);
  }

  MessageType(int id, MaySend maySend, boolean payload) {
    this.id = id;
    this.maySend = maySend;
    this.payload = payload;
  }

  /** Who may send a request of this type. */
  public MaySend maySend() {
    return maySend;
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
