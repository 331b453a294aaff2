package org.scache.common.protocol;

import java.util.Optional;

/**
 * The one-byte message type of every frame, who may send it, and how its fields are read. Requests
 * are below 128, answers from 128 up; ids are never reused. Only the types whose last argument is
 * {@code true} may carry bulk bytes after their metadata.
 */
public enum MessageType {
  REGISTER_WORKER(1, MaySend.CLUSTER, RegisterWorker::read),
  HEARTBEAT(2, MaySend.CLUSTER, Heartbeat::read),
  REPORT_BLOCKS(3, MaySend.CLUSTER, ReportBlocks::read),
  REGISTER_APPLICATION(4, MaySend.REGISTERING_APPLICATION, RegisterApplication::read),
  REGISTER_SHUFFLE(5, MaySend.APPLICATION_OR_CLUSTER, RegisterShuffle::read),
  MAP_FINISHED(6, MaySend.APPLICATION_OR_CLUSTER, MapFinished::read),
  GET_SCHEDULE_RESULT(7, MaySend.APPLICATION_OR_CLUSTER, GetScheduleResult::read),
  UNREGISTER_SHUFFLE(8, MaySend.APPLICATION_OR_CLUSTER, UnregisterShuffle::read),
  REMOVE_APPLICATION(9, MaySend.APPLICATION_OR_CLUSTER, RemoveApplication::read),
  LIST_WORKERS(10, MaySend.ANYONE, ListWorkers::read),
  FETCH_APP_SECRET(11, MaySend.CLUSTER, FetchAppSecret::read),
  LOCATE_BLOCKS(12, MaySend.APPLICATION_OR_CLUSTER, LocateBlocks::read),
  VOUCH_APPLICATION(13, MaySend.CLUSTER, VouchApplication::read),
  ASK_BLOCK_ROOM(14, MaySend.ANYONE, AskBlockRoom::read),
  PUT_BLOCK(20, MaySend.APPLICATION_OR_CLUSTER, PutBlock::read, true),
  GET_BLOCK(21, MaySend.APPLICATION_OR_CLUSTER, GetBlock::read),
  GET_REDUCE_INPUT(22, MaySend.APPLICATION_OR_CLUSTER, GetReduceInput::read),
  FETCH_BLOCKS(23, MaySend.CLUSTER, FetchBlocks::read),
  GET_WORKER_STATS(24, MaySend.ANYONE, GetWorkerStats::read),
  // prediction and pre-scheduling (40-59)
  REPORT_SAMPLES(40, MaySend.APPLICATION_OR_CLUSTER, ReportSamples::read),
  SHUFFLE_SCHEDULED(41, MaySend.CLUSTER, ShuffleScheduled::read),
  MAP_OUTPUT_READY(42, MaySend.CLUSTER, MapOutputReady::read),
  READ_IN_PLACE(43, MaySend.APPLICATION_OR_CLUSTER, ReadInPlace::read),
  MAP_OUTPUTS_READY(44, MaySend.CLUSTER, MapOutputsReady::read),
  HOLD_COPIES(45, MaySend.APPLICATION_OR_CLUSTER, HoldCopies::read),
  // local shared-memory access (60-69)
  OPEN_LOCAL(60, MaySend.APPLICATION_OR_CLUSTER, OpenLocal::read),
  LEASE_MEMORY(61, MaySend.APPLICATION_OR_CLUSTER, LeaseMemory::read),
  COMMIT_LEASED(62, MaySend.APPLICATION_OR_CLUSTER, CommitLeased::read),
  RELEASE_LEASE(63, MaySend.HOLDER, ReleaseLease::read),
  PIN_BLOCK(64, MaySend.APPLICATION_OR_CLUSTER, PinBlock::read),
  UNPIN(65, MaySend.HOLDER, Unpin::read),
  PIN_REDUCE_INPUT(66, MaySend.APPLICATION_OR_CLUSTER, PinReduceInput::read),
  PIN_REDUCE_INPUT_PART(67, MaySend.APPLICATION_OR_CLUSTER, PinReduceInputPart::read),
  // reserve, spill and read-once (70-79)
  REPORT_ROUNDS(70, MaySend.CLUSTER, ReportRounds::read),
  ROUNDS_INCOMPLETE(71, MaySend.CLUSTER, RoundsIncomplete::read),
  REDUCE_COMMITTED(72, MaySend.APPLICATION_OR_CLUSTER, ReduceCommitted::read),
  REPORT_LOST_BLOCKS(73, MaySend.CLUSTER, ReportLostBlocks::read),
  REPORT_BLOCK_ROOM(74, MaySend.CLUSTER, ReportBlockRoom::read),
  // observation (80-89)
  REPORT_WORKER_ACTIVITY(80, MaySend.CLUSTER, ReportWorkerActivity::read),

  ACK(128, MaySend.NOBODY, Ack::read),
  WORKER_REGISTERED(129, MaySend.NOBODY, WorkerRegistered::read),
  HEARTBEAT_ACK(130, MaySend.NOBODY, HeartbeatAck::read),
  SCHEDULE_RESULT(131, MaySend.NOBODY, ScheduleResult::read),
  WORKERS(132, MaySend.NOBODY, Workers::read),
  APP_SECRET(133, MaySend.NOBODY, AppSecret::read),
  BLOCK_LOCATIONS(134, MaySend.NOBODY, BlockLocations::read),
  BLOCK_DATA(135, MaySend.NOBODY, BlockData::read, true),
  BLOCKS_DATA(136, MaySend.NOBODY, BlocksData::read, true),
  WORKER_STATS(137, MaySend.NOBODY, WorkerStats::read),
  /** Sent unasked by the accepting side when a connection opens, with its {@link ChannelBinding} nonce. */
  SERVER_HELLO(138, MaySend.NOBODY, ServerHello::read),
  BLOCK_ROOM(139, MaySend.NOBODY, BlockRoom::read),
  // local shared-memory access (160-169)
  LOCAL_SEGMENTS(160, MaySend.NOBODY, LocalSegments::read),
  MEMORY_LEASE(161, MaySend.NOBODY, MemoryLease::read),
  PINNED_BLOCK(162, MaySend.NOBODY, PinnedBlock::read),
  PINNED_REDUCE_INPUT(163, MaySend.NOBODY, PinnedReduceInput::read, true),
  ERROR(255, MaySend.NOBODY, ErrorAnswer::read);

  private static final MessageType[] BY_ID = new MessageType[256];

  static {
    for (MessageType t : values()) {
      BY_ID[t.id] = t;
    }
  }

  private final int id;
  private final MaySend maySend;
  private final MessageReader reader;
  private final boolean payload;

  MessageType(int id, MaySend maySend, MessageReader reader) {
    this(id, maySend, reader, false);
  }

  MessageType(int id, MaySend maySend, MessageReader reader, boolean payload) {
    this.id = id;
    this.maySend = maySend;
    this.reader = reader;
    this.payload = payload;
  }

  /** Reads the fields of a message of this type; the caller checks that nothing is left after them. */
  Message read(WireReader in) throws MalformedMessageException {
    return reader.read(in);
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
