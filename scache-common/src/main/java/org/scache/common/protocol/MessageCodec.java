package org.scache.common.protocol;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.scache.common.BlockId;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.Message.Ack;
import org.scache.common.protocol.Message.AppSecret;
import org.scache.common.protocol.Message.BlockData;
import org.scache.common.protocol.Message.BlockLocations;
import org.scache.common.protocol.Message.BlocksData;
import org.scache.common.protocol.Message.Error;
import org.scache.common.protocol.Message.FetchAppSecret;
import org.scache.common.protocol.Message.FetchBlocks;
import org.scache.common.protocol.Message.GetBlock;
import org.scache.common.protocol.Message.GetReduceInput;
import org.scache.common.protocol.Message.GetScheduleResult;
import org.scache.common.protocol.Message.GetWorkerStats;
import org.scache.common.protocol.Message.Heartbeat;
import org.scache.common.protocol.Message.HeartbeatAck;
import org.scache.common.protocol.Message.ListWorkers;
import org.scache.common.protocol.Message.LocateBlocks;
import org.scache.common.protocol.Message.MapFinished;
import org.scache.common.protocol.Message.MapOutputReady;
import org.scache.common.protocol.Message.PutBlock;
import org.scache.common.protocol.Message.RegisterApplication;
import org.scache.common.protocol.Message.RegisterShuffle;
import org.scache.common.protocol.Message.RegisterWorker;
import org.scache.common.protocol.Message.RemoveApplication;
import org.scache.common.protocol.Message.ReportBlocks;
import org.scache.common.protocol.Message.ReportSamples;
import org.scache.common.protocol.Message.ScheduleResult;
import org.scache.common.protocol.Message.ShuffleScheduled;
import org.scache.common.protocol.Message.UnregisterShuffle;
import org.scache.common.protocol.Message.WorkerRegistered;
import org.scache.common.protocol.Message.WorkerStats;
import org.scache.common.protocol.Message.Workers;
import org.scache.common.shuffle.BlockLocation;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.MapSample;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.PredictorKind;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ReduceMove;
import org.scache.common.shuffle.RoundState;
import org.scache.common.shuffle.ShuffleActivity;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;

/**
 * Encodes and decodes the metadata of every message type. Field order and widths are the
 * protocol: see {@code docs/protocol.md}. Decoding validates every value, so a malformed frame is
 * reported with {@link MalformedMessageException} and the connection can go on.
 */
public final class MessageCodec {
  private MessageCodec() {}

  /** Writes {@code message}'s metadata to {@code out}. */
  public static void encode(Message message, ByteBuf out) {
    WireBuffer bytes = new WireBuffer(128);
    encode(message, bytes);
    out.writeBytes(bytes.array(), 0, bytes.length());
  }

  /** Writes {@code message}'s metadata to {@code out}. */
  public static void encode(Message message, WireBuffer out) {
    WireWriter w = new WireWriter(out);
    switch (message.type()) {
      case REGISTER_WORKER -> {
        RegisterWorker m = (RegisterWorker) message;
        writeWorker(w, m.worker()).writeLong(m.reservedBytes()).writeLong(m.usedBytes());
      }
      case HEARTBEAT -> {
        Heartbeat m = (Heartbeat) message;
        w.writeString(m.workerId()).writeLong(m.reservedBytes()).writeLong(m.usedBytes()).writeLong(m.blockCount());
        writeStrings(w, m.heldApps());
      }
      case REPORT_BLOCKS -> {
        ReportBlocks m = (ReportBlocks) message;
        w.writeString(m.workerId()).writeInt(m.blocks().size());
        for (BlockSize b : m.blocks()) {
          writeBlockId(w, b.blockId()).writeLong(b.size());
        }
      }
      case REGISTER_APPLICATION -> {
        RegisterApplication m = (RegisterApplication) message;
        w.writeString(m.appId()).writeBytes(m.secret());
      }
      case REGISTER_SHUFFLE -> {
        ShuffleSpec m = ((RegisterShuffle) message).shuffle();
        w.writeString(m.appId()).writeInt(m.shuffleId()).writeInt(m.numMaps())
          .writeInt(m.numReduces()).writeByte(WireCodes.partitioner(m.partitioner())).writeLong(m.submissionTimeMillis());
        w.writeInt(m.mapInputBytes().size());
        m.mapInputBytes().forEach(w::writeLong);
        w.writeInt(m.stageId()).writeByte(WireCodes.predictor(m.predictor())).writeInt(m.slotsPerWorker());
        w.writeByte(m.readsRanges() ? 1 : 0).writeByte(m.reducesAfterMaps() ? 1 : 0).writeInt(m.mapsPerTask());
      }
      case MAP_FINISHED -> {
        MapFinished m = (MapFinished) message;
        w.writeString(m.appId()).writeInt(m.shuffleId()).writeInt(m.mapId()).writeInt(m.attempt());
      }
      case GET_SCHEDULE_RESULT -> {
        GetScheduleResult m = (GetScheduleResult) message;
        w.writeString(m.appId()).writeInt(m.shuffleId());
      }
      case UNREGISTER_SHUFFLE -> {
        UnregisterShuffle m = (UnregisterShuffle) message;
        w.writeString(m.appId()).writeInt(m.shuffleId());
      }
      case REMOVE_APPLICATION -> {
        RemoveApplication m = (RemoveApplication) message;
        w.writeString(m.appId());
      }
      case LIST_WORKERS -> { }
      case FETCH_APP_SECRET -> {
        FetchAppSecret m = (FetchAppSecret) message;
        w.writeString(m.appId());
      }
      case LOCATE_BLOCKS -> {
        LocateBlocks m = (LocateBlocks) message;
        w.writeString(m.appId()).writeInt(m.shuffleId()).writeInt(m.reduceId()).writeInt(m.mapId());
      }
      case PUT_BLOCK -> {
        PutBlock m = (PutBlock) message;
        writeBlockId(w, m.blockId());
      }
      case GET_BLOCK -> {
        GetBlock m = (GetBlock) message;
        writeBlockId(w, m.blockId());
      }
      case GET_REDUCE_INPUT -> {
        GetReduceInput m = (GetReduceInput) message;
        w.writeString(m.appId()).writeInt(m.shuffleId()).writeInt(m.reduceId()).writeLong(m.waitMillis());
      }
      case FETCH_BLOCKS -> {
        FetchBlocks m = (FetchBlocks) message;
        w.writeInt(m.blockIds().size());
        for (BlockId id : m.blockIds()) {
          writeBlockId(w, id);
        }
      }
      case GET_WORKER_STATS -> { }
      case REPORT_SAMPLES -> {
        ReportSamples m = (ReportSamples) message;
        w.writeString(m.appId()).writeInt(m.shuffleId()).writeInt(m.samples().size());
        for (MapSample sample : m.samples()) {
          w.writeInt(sample.mapId()).writeLong(sample.inputBytes()).writeInt(sample.capacity())
              .writeInt(sample.countsPerReduce().size());
          sample.countsPerReduce().forEach(w::writeInt);
          w.writeString(sample.expectedHost().orElse(""));
        }
      }
      case SHUFFLE_SCHEDULED -> {
        ShuffleScheduled m = (ShuffleScheduled) message;
        writePlacement(w, m.placement());
        w.writeInt(m.moves().size());
        for (ReduceMove move : m.moves()) {
          writeWorker(writeWorker(w.writeInt(move.shuffleId()).writeInt(move.reduceId()), move.from()), move.to());
        }
        w.writeLong(m.submissionTimeMillis());
      }
      case MAP_OUTPUT_READY -> {
        MapOutputReady m = (MapOutputReady) message;
        w.writeString(m.appId()).writeInt(m.shuffleId()).writeInt(m.mapId()).writeInt(m.attempt());
        writeWorker(w, m.holder()).writeInt(m.blocks().size());
        for (BlockSize b : m.blocks()) {
          writeBlockId(w, b.blockId()).writeLong(b.size());
        }
      }
      case OPEN_LOCAL -> w.writeString(((Message.OpenLocal) message).appId());
      case LEASE_MEMORY -> {
        Message.LeaseMemory m = (Message.LeaseMemory) message;
        w.writeString(m.appId()).writeLong(m.bytes());
      }
      case COMMIT_LEASED -> {
        Message.CommitLeased m = (Message.CommitLeased) message;
        writeBlockId(w, m.blockId()).writeLong(m.leaseId()).writeLong(m.offset()).writeLong(m.length());
      }
      case RELEASE_LEASE -> w.writeLong(((Message.ReleaseLease) message).leaseId());
      case PIN_BLOCK -> writeBlockId(w, ((Message.PinBlock) message).blockId());
      case PIN_REDUCE_INPUT -> {
        Message.PinReduceInput m = (Message.PinReduceInput) message;
        w.writeString(m.appId()).writeInt(m.shuffleId()).writeInt(m.reduceId()).writeLong(m.waitMillis());
      }
      case PIN_REDUCE_INPUT_PART -> {
        Message.PinReduceInputPart m = (Message.PinReduceInputPart) message;
        w.writeString(m.appId()).writeInt(m.shuffleId()).writeInt(m.reduceId()).writeLong(m.waitMillis())
            .writeInt(m.haveMaps().size());
        m.haveMaps().forEach(w::writeInt);
      }
      case UNPIN -> {
        Message.Unpin m = (Message.Unpin) message;
        w.writeInt(m.pinIds().size());
        m.pinIds().forEach(w::writeLong);
      }
      case REPORT_ROUNDS -> {
        Message.ReportRounds m = (Message.ReportRounds) message;
        w.writeString(m.workerId()).writeInt(m.rounds().size());
        for (RoundState round : m.rounds()) {
          w.writeString(round.appId()).writeInt(round.shuffleId()).writeInt(round.round())
              .writeByte(round.incomplete() ? 1 : 0);
        }
      }
      case REPORT_WORKER_ACTIVITY -> {
        Message.ReportWorkerActivity m = (Message.ReportWorkerActivity) message;
        w.writeString(m.workerId()).writeLong(m.spilledBytes()).writeLong(m.spillFileBytes())
            .writeInt(m.shuffles().size());
        for (ShuffleActivity a : m.shuffles()) {
          w.writeString(a.appId()).writeInt(a.shuffleId()).writeLong(a.prefetchedBytes()).writeLong(a.localReadBytes())
              .writeLong(a.remoteReadBytes()).writeInt(a.reads().size());
          for (ShuffleActivity.ReduceRead read : a.reads()) {
            w.writeInt(read.reduceId()).writeByte(read.placementKnown() ? 1 : 0).writeLong(read.localBytes())
                .writeLong(read.remoteBytes());
          }
        }
      }
      case ROUNDS_INCOMPLETE -> {
        Message.RoundsIncomplete m = (Message.RoundsIncomplete) message;
        w.writeString(m.appId()).writeInt(m.shuffleId()).writeInt(m.rounds().size());
        m.rounds().forEach(w::writeInt);
      }
      case REDUCE_COMMITTED -> {
        Message.ReduceCommitted m = (Message.ReduceCommitted) message;
        w.writeString(m.appId()).writeInt(m.shuffleId()).writeInt(m.reduceId());
      }
      case REPORT_LOST_BLOCKS -> {
        Message.ReportLostBlocks m = (Message.ReportLostBlocks) message;
        w.writeString(m.workerId()).writeInt(m.blockIds().size());
        for (BlockId id : m.blockIds()) {
          writeBlockId(w, id);
        }
      }
      case ACK -> { }
      case WORKER_REGISTERED -> {
        WorkerRegistered m = (WorkerRegistered) message;
        w.writeLong(m.heartbeatIntervalMillis());
      }
      case HEARTBEAT_ACK -> {
        HeartbeatAck m = (HeartbeatAck) message;
        writeStrings(w, m.removedApps());
      }
      case SCHEDULE_RESULT -> {
        writePlacement(w, ((ScheduleResult) message).placement());
      }
      case WORKERS -> {
        Workers m = (Workers) message;
        w.writeInt(m.workers().size());
        for (WorkerInfo wi : m.workers()) {
          writeWorker(w, wi);
        }
      }
      case APP_SECRET -> {
        AppSecret m = (AppSecret) message;
        w.writeBytes(m.secret());
      }
      case SERVER_HELLO -> w.writeBytes(((Message.ServerHello) message).nonce());
      case BLOCK_LOCATIONS -> {
        BlockLocations m = (BlockLocations) message;
        w.writeInt(m.numMaps()).writeInt(m.finishedMaps()).writeInt(m.locations().size());
        for (BlockLocation l : m.locations()) {
          writeWorker(writeBlockId(w, l.blockId()).writeLong(l.size()), l.holder());
        }
      }
      case BLOCK_DATA -> {
        BlockData m = (BlockData) message;
        writeBlockId(w, m.blockId());
      }
      case BLOCKS_DATA -> {
        BlocksData m = (BlocksData) message;
        w.writeInt(m.numMaps()).writeInt(m.finishedMaps()).writeInt(m.blocks().size());
        for (BlockSize b : m.blocks()) {
          writeBlockId(w, b.blockId()).writeLong(b.size());
        }
      }
      case WORKER_STATS -> {
        WorkerStats m = (WorkerStats) message;
        w.writeInt(m.counters().size());
        m.counters().forEach((k, v) -> w.writeString(k).writeLong(v));
      }
      case LOCAL_SEGMENTS -> {
        Message.LocalSegments m = (Message.LocalSegments) message;
        w.writeInt(m.segments().size());
        for (Message.LocalSegment seg : m.segments()) {
          w.writeInt(seg.index()).writeString(seg.path()).writeLong(seg.size());
        }
      }
      case MEMORY_LEASE -> {
        Message.MemoryLease m = (Message.MemoryLease) message;
        w.writeLong(m.leaseId()).writeInt(m.segment()).writeLong(m.offset()).writeLong(m.length());
      }
      case PINNED_BLOCK -> {
        Message.PinnedBlock m = (Message.PinnedBlock) message;
        w.writeLong(m.pinId()).writeInt(m.segment()).writeLong(m.offset()).writeLong(m.length());
      }
      case PINNED_REDUCE_INPUT -> {
        Message.PinnedReduceInput m = (Message.PinnedReduceInput) message;
        w.writeInt(m.numMaps()).writeInt(m.finishedMaps()).writeInt(m.parts().size());
        for (Message.ReducePart p : m.parts()) {
          writeBlockId(w, p.blockId()).writeLong(p.size());
          if (p.pin().isPresent()) {
            Message.PinnedBlock pin = p.pin().get();
            w.writeByte(1).writeLong(pin.pinId()).writeInt(pin.segment()).writeLong(pin.offset());
          } else {
            w.writeByte(0);
          }
        }
      }
      case ERROR -> {
        Error m = (Error) message;
        w.writeShort(m.status().code()).writeString(m.message());
      }
      default -> throw new IllegalStateException("no encoding for " + message.type());
    }
  }

  /** Reads one message of {@code type} from all of {@code in}'s readable bytes, and moves past what it read. */
  public static Message decode(MessageType type, ByteBuf in) throws MalformedMessageException {
    return WireReader.fromReadable(in, view -> decode(type, view));
  }

  /** Reads one message of {@code type} from all of {@code in}'s remaining bytes, and moves past what it read. */
  public static Message decode(MessageType type, ByteBuffer in) throws MalformedMessageException {
    WireReader r = new WireReader(in);
    Message m = switch (type) {
      case REGISTER_WORKER -> new RegisterWorker(readWorker(r), r.readNonNegativeLong("reserved bytes"),
          r.readNonNegativeLong("used bytes"));
      case HEARTBEAT -> new Heartbeat(r.readNonEmptyString("worker id"), r.readNonNegativeLong("reserved bytes"),
          r.readNonNegativeLong("used bytes"), r.readNonNegativeLong("block count"), readStrings(r, "held apps"));
      case REPORT_BLOCKS -> {
        String worker = r.readNonEmptyString("worker id");
        List<BlockSize> blocks = readList(r, "blocks", BLOCK_ID_MIN_BYTES + 8, () -> readBlockSize(r));
        yield new ReportBlocks(worker, blocks);
      }
      case REGISTER_APPLICATION -> new RegisterApplication(r.readNonEmptyString("application id"),
          r.readBytes("secret"));
      case REGISTER_SHUFFLE -> {
        String app = r.readNonEmptyString("application id");
        int shuffle = r.readNonNegativeInt("shuffle id");
        int maps = r.readNonNegativeInt("map count");
        int reduces = r.readNonNegativeInt("reduce count");
        int kind = r.readUnsignedByte("partitioner kind");
        PartitionerKind pk = WireCodes.partitioner(kind)
            .orElseThrow(() -> new MalformedMessageException("unknown partitioner kind " + kind));
        long submitted = r.readLong("submission time");
        int inputs = r.readCount("map input sizes", 8);
        List<Long> inputBytes = WireReader.listOf(inputs);
        for (int i = 0; i < inputs; i++) {
          inputBytes.add(r.readNonNegativeLong("map input size"));
        }
        int stage = r.readInt("stage id");
        if (stage < ShuffleSpec.NO_STAGE) {
          throw new MalformedMessageException("stage id must be -1 (none) or a stage id: " + stage);
        }
        int choice = r.readUnsignedByte("predictor");
        Optional<PredictorKind> predictor = WireCodes.predictor(choice)
            .orElseThrow(() -> new MalformedMessageException("unknown predictor " + choice));
        int slots = r.readNonNegativeInt("slots per worker");
        // absent from the forms a master of an earlier version stored: each reduce read on its own
        boolean ranges = r.hasMore() && r.readFlag("reads ranges");
        boolean afterMaps = r.hasMore() && r.readFlag("reduces after maps");
        int mapsPerTask = r.hasMore() ? r.readNonNegativeInt("maps per task") : 1;
        if (mapsPerTask < 1 || maps % mapsPerTask != 0) {
          throw new MalformedMessageException("maps per task must be at least 1 and divide the " + maps + " maps: "
              + mapsPerTask);
        }
        yield new RegisterShuffle(new ShuffleSpec(app, shuffle, maps, reduces, pk, submitted, inputBytes, stage,
            predictor, slots, ranges, afterMaps, mapsPerTask));
      }
      case MAP_FINISHED -> new MapFinished(r.readNonEmptyString("application id"), r.readNonNegativeInt("shuffle id"),
          r.readNonNegativeInt("map id"), r.readNonNegativeInt("attempt"));
      case GET_SCHEDULE_RESULT -> new GetScheduleResult(r.readNonEmptyString("application id"),
          r.readNonNegativeInt("shuffle id"));
      case UNREGISTER_SHUFFLE -> new UnregisterShuffle(r.readNonEmptyString("application id"),
          r.readNonNegativeInt("shuffle id"));
      case REMOVE_APPLICATION -> new RemoveApplication(r.readNonEmptyString("application id"));
      case LIST_WORKERS -> new ListWorkers();
      case FETCH_APP_SECRET -> new FetchAppSecret(r.readNonEmptyString("application id"));
      case LOCATE_BLOCKS -> {
        String app = r.readNonEmptyString("application id");
        int shuffle = r.readNonNegativeInt("shuffle id");
        int reduce = r.readNonNegativeInt("reduce id");
        int map = r.readInt("map id");
        if (map < -1) {
          throw new MalformedMessageException("map id must be -1 (all) or a map id: " + map);
        }
        yield new LocateBlocks(app, shuffle, reduce, map);
      }
      case PUT_BLOCK -> new PutBlock(readBlockId(r));
      case GET_BLOCK -> new GetBlock(readBlockId(r));
      case GET_REDUCE_INPUT -> {
        String app = r.readNonEmptyString("application id");
        int shuffle = r.readNonNegativeInt("shuffle id");
        int reduce = r.readNonNegativeInt("reduce id");
        yield new GetReduceInput(app, shuffle, reduce, readWait(r));
      }
      case FETCH_BLOCKS -> {
        List<BlockId> ids = readList(r, "block ids", BLOCK_ID_MIN_BYTES, () -> readBlockId(r));
        yield new FetchBlocks(ids);
      }
      case GET_WORKER_STATS -> new GetWorkerStats();
      case REPORT_SAMPLES -> {
        String app = r.readNonEmptyString("application id");
        int shuffle = r.readNonNegativeInt("shuffle id");
        int n = r.readCount("samples", 4 + 8 + 4 + 4 + 2);
        List<MapSample> samples = WireReader.listOf(n);
        for (int i = 0; i < n; i++) {
          int map = r.readNonNegativeInt("map id");
          long input = r.readNonNegativeLong("input bytes");
          int capacity = r.readNonNegativeInt("sample capacity");
          int reduces = r.readCount("sample counts", 4);
          List<Integer> counts = WireReader.listOf(reduces);
          for (int k = 0; k < reduces; k++) {
            counts.add(r.readNonNegativeInt("sample count"));
          }
          String host = r.readString("expected host");
          samples.add(new MapSample(map, input, capacity, counts, host.isEmpty() ? Optional.empty() : Optional.of(host)));
        }
        yield new ReportSamples(app, shuffle, samples);
      }
      case SHUFFLE_SCHEDULED -> {
        String app = r.readNonEmptyString("application id");
        int shuffle = r.readNonNegativeInt("shuffle id");
        String policy = r.readString("policy");
        List<ReduceAssignment> list = readList(r, "assignments", ASSIGNMENT_MIN_BYTES, () -> readAssignment(r));
        int moves = r.readCount("moves", 4 + 4 + 2 * WORKER_MIN_BYTES);
        List<ReduceMove> moveList = WireReader.listOf(moves);
        for (int i = 0; i < moves; i++) {
          moveList.add(new ReduceMove(r.readNonNegativeInt("shuffle id"), r.readNonNegativeInt("reduce id"),
              readWorker(r), readWorker(r)));
        }
        yield new ShuffleScheduled(new ShufflePlacement(app, shuffle, policy, list), moveList,
            r.readLong("submission time"));
      }
      case MAP_OUTPUT_READY -> {
        String app = r.readNonEmptyString("application id");
        int shuffle = r.readNonNegativeInt("shuffle id");
        int map = r.readNonNegativeInt("map id");
        int attempt = r.readNonNegativeInt("attempt");
        WorkerInfo holder = readWorker(r);
        List<BlockSize> blocks = readList(r, "blocks", BLOCK_ID_MIN_BYTES + 8, () -> readBlockSize(r));
        yield new MapOutputReady(app, shuffle, map, attempt, holder, blocks);
      }
      case OPEN_LOCAL -> new Message.OpenLocal(r.readNonEmptyString("application id"));
      case LEASE_MEMORY -> new Message.LeaseMemory(r.readNonEmptyString("application id"),
          r.readNonNegativeLong("lease bytes"));
      case COMMIT_LEASED -> new Message.CommitLeased(readBlockId(r), r.readLong("lease id"),
          r.readNonNegativeLong("offset"), r.readNonNegativeLong("length"));
      case RELEASE_LEASE -> new Message.ReleaseLease(r.readLong("lease id"));
      case PIN_BLOCK -> new Message.PinBlock(readBlockId(r));
      case PIN_REDUCE_INPUT -> {
        String app = r.readNonEmptyString("application id");
        int shuffle = r.readNonNegativeInt("shuffle id");
        int reduce = r.readNonNegativeInt("reduce id");
        yield new Message.PinReduceInput(app, shuffle, reduce, readWait(r));
      }
      case PIN_REDUCE_INPUT_PART -> {
        String app = r.readNonEmptyString("application id");
        int shuffle = r.readNonNegativeInt("shuffle id");
        int reduce = r.readNonNegativeInt("reduce id");
        long wait = readWait(r);
        List<Integer> have = readList(r, "map ids", 4, () -> r.readNonNegativeInt("map id"));
        yield new Message.PinReduceInputPart(app, shuffle, reduce, wait, have);
      }
      case UNPIN -> {
        List<Long> ids = readList(r, "pin ids", 8, () -> r.readLong("pin id"));
        yield new Message.Unpin(ids);
      }
      case REPORT_ROUNDS -> {
        String worker = r.readNonEmptyString("worker id");
        List<RoundState> rounds = readList(r, "rounds", 2 + 1 + 4 + 4 + 1, () -> {
          String app = r.readNonEmptyString("application id");
          int shuffle = r.readNonNegativeInt("shuffle id");
          int round = r.readNonNegativeInt("round");
          int flag = r.readUnsignedByte("incomplete");
          if (flag > 1) {
            throw new MalformedMessageException("incomplete must be 0 or 1: " + flag);
          }
          return new RoundState(app, shuffle, round, flag == 1);
        });
        yield new Message.ReportRounds(worker, rounds);
      }
      case REPORT_WORKER_ACTIVITY -> {
        String worker = r.readNonEmptyString("worker id");
        long spilled = r.readNonNegativeLong("spilled bytes");
        long spillFiles = r.readNonNegativeLong("spill file bytes");
        List<ShuffleActivity> shuffles = readList(r, "shuffles", 2 + 1 + 4 + 8 + 8 + 8 + 4, () -> {
          String app = r.readNonEmptyString("application id");
          int shuffle = r.readNonNegativeInt("shuffle id");
          long prefetched = r.readNonNegativeLong("prefetched bytes");
          long local = r.readNonNegativeLong("local read bytes");
          long remote = r.readNonNegativeLong("remote read bytes");
          List<ShuffleActivity.ReduceRead> reads = readList(r, "reduce reads", 4 + 1 + 8 + 8, () -> {
            int reduce = r.readNonNegativeInt("reduce id");
            int flag = r.readUnsignedByte("placement known");
            if (flag > 1) {
              throw new MalformedMessageException("placement known must be 0 or 1: " + flag);
            }
            return new ShuffleActivity.ReduceRead(reduce, flag == 1, r.readNonNegativeLong("local bytes"),
                r.readNonNegativeLong("remote bytes"));
          });
          return new ShuffleActivity(app, shuffle, prefetched, local, remote, reads);
        });
        yield new Message.ReportWorkerActivity(worker, spilled, spillFiles, shuffles);
      }
      case ROUNDS_INCOMPLETE -> {
        String app = r.readNonEmptyString("application id");
        int shuffle = r.readNonNegativeInt("shuffle id");
        List<Integer> rounds = readList(r, "rounds", 4, () -> r.readNonNegativeInt("round"));
        yield new Message.RoundsIncomplete(app, shuffle, rounds);
      }
      case REDUCE_COMMITTED -> new Message.ReduceCommitted(r.readNonEmptyString("application id"),
          r.readNonNegativeInt("shuffle id"), r.readNonNegativeInt("reduce id"));
      case REPORT_LOST_BLOCKS -> {
        String worker = r.readNonEmptyString("worker id");
        List<BlockId> ids = readList(r, "block ids", BLOCK_ID_MIN_BYTES, () -> readBlockId(r));
        yield new Message.ReportLostBlocks(worker, ids);
      }
      case ACK -> new Ack();
      case WORKER_REGISTERED -> new WorkerRegistered(r.readNonNegativeLong("heartbeat interval"));
      case HEARTBEAT_ACK -> new HeartbeatAck(readStrings(r, "removed apps"));
      case SCHEDULE_RESULT -> {
        String app = r.readNonEmptyString("application id");
        int shuffle = r.readNonNegativeInt("shuffle id");
        String policy = r.readString("policy");
        List<ReduceAssignment> list = readList(r, "assignments", ASSIGNMENT_MIN_BYTES, () -> readAssignment(r));
        yield new ScheduleResult(new ShufflePlacement(app, shuffle, policy, list));
      }
      case WORKERS -> {
        List<WorkerInfo> list = readList(r, "workers", WORKER_MIN_BYTES, () -> readWorker(r));
        yield new Workers(list);
      }
      case APP_SECRET -> new AppSecret(r.readBytes("secret"));
      case SERVER_HELLO -> new Message.ServerHello(r.readBytes("nonce"));
      case BLOCK_LOCATIONS -> {
        int maps = r.readNonNegativeInt("map count");
        int finished = r.readNonNegativeInt("finished map count");
        List<BlockLocation> list = readList(r, "locations", BLOCK_ID_MIN_BYTES + 8 + WORKER_MIN_BYTES,
            () -> new BlockLocation(readBlockId(r), r.readNonNegativeLong("block size"), readWorker(r)));
        yield new BlockLocations(maps, finished, list);
      }
      case BLOCK_DATA -> new BlockData(readBlockId(r));
      case BLOCKS_DATA -> {
        int maps = r.readNonNegativeInt("map count");
        int finished = r.readNonNegativeInt("finished map count");
        List<BlockSize> list = readList(r, "blocks", BLOCK_ID_MIN_BYTES + 8, () -> readBlockSize(r));
        yield new BlocksData(maps, finished, list);
      }
      case WORKER_STATS -> {
        int n = r.readCount("counters", 2 + 8);
        Map<String, Long> counters = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
          counters.put(r.readString("counter name"), r.readLong("counter value"));
        }
        yield new WorkerStats(counters);
      }
      case LOCAL_SEGMENTS -> {
        int n = r.readCount("segments", 4 + 2 + 8);
        List<Message.LocalSegment> list = WireReader.listOf(n);
        for (int i = 0; i < n; i++) {
          list.add(new Message.LocalSegment(r.readNonNegativeInt("segment index"), r.readNonEmptyString("segment path"),
              r.readNonNegativeLong("segment size")));
        }
        yield new Message.LocalSegments(list);
      }
      case MEMORY_LEASE -> new Message.MemoryLease(r.readLong("lease id"), r.readNonNegativeInt("segment"),
          r.readNonNegativeLong("offset"), r.readNonNegativeLong("length"));
      case PINNED_BLOCK -> new Message.PinnedBlock(r.readLong("pin id"), r.readNonNegativeInt("segment"),
          r.readNonNegativeLong("offset"), r.readNonNegativeLong("length"));
      case PINNED_REDUCE_INPUT -> {
        int maps = r.readNonNegativeInt("map count");
        int finished = r.readNonNegativeInt("finished map count");
        List<Message.ReducePart> parts = readList(r, "blocks", BLOCK_ID_MIN_BYTES + 8 + 1, () -> {
          BlockId id = readBlockId(r);
          long size = r.readNonNegativeLong("block size");
          Optional<Message.PinnedBlock> pin = r.readFlag("pinned")
              ? Optional.of(new Message.PinnedBlock(r.readLong("pin id"), r.readNonNegativeInt("segment"),
                  r.readNonNegativeLong("offset"), size))
              : Optional.empty();
          return new Message.ReducePart(id, size, pin);
        });
        yield new Message.PinnedReduceInput(maps, finished, parts);
      }
      case ERROR -> {
        int code = r.readUnsignedShort("status");
        Status s = Status.fromCode(code).orElse(Status.INTERNAL_ERROR);
        String text = r.readString("error message");
        yield new Error(s, s.code() == code ? text : "unknown status " + code + ": " + text);
      }
    };
    r.expectEnd(type.name());
    return m;
  }

  private static final int BLOCK_ID_MIN_BYTES = 2 + 1 + 4 * 4;
  private static final int WORKER_MIN_BYTES = 2 + 1 + 2 + 4;
  /** Reduce id, worker, round, predicted bytes. */
  private static final int ASSIGNMENT_MIN_BYTES = 4 + WORKER_MIN_BYTES + 4 + 8;

  /** Reads one list element; may throw on malformed input. */
  private interface ElementReader<T> {
    T read() throws MalformedMessageException;
  }

  /** A list written as an i32 count and its elements, each at least {@code minElementBytes} long. */
  private static <T> List<T> readList(WireReader r, String what, int minElementBytes, ElementReader<T> element)
      throws MalformedMessageException {
    int n = r.readCount(what, minElementBytes);
    List<T> list = WireReader.listOf(n);
    for (int i = 0; i < n; i++) {
      list.add(element.read());
    }
    return list;
  }

  private static long readWait(WireReader r) throws MalformedMessageException {
    long wait = r.readLong("wait");
    if (wait < GetReduceInput.WORKER_DEFAULT_WAIT) {
      throw new MalformedMessageException("wait must be -1 (worker default) or milliseconds: " + wait);
    }
    return wait;
  }

  private static BlockSize readBlockSize(WireReader r) throws MalformedMessageException {
    return new BlockSize(readBlockId(r), r.readNonNegativeLong("block size"));
  }

  private static void writePlacement(WireWriter w, ShufflePlacement p) {
    w.writeString(p.appId()).writeInt(p.shuffleId()).writeString(p.policy()).writeInt(p.assignments().size());
    for (ReduceAssignment a : p.assignments()) {
      writeWorker(w.writeInt(a.reduceId()), a.worker()).writeInt(a.round()).writeLong(a.predictedBytes());
    }
  }

  private static ReduceAssignment readAssignment(WireReader r) throws MalformedMessageException {
    int reduceId = r.readNonNegativeInt("reduce id");
    WorkerInfo worker = readWorker(r);
    int round = r.readNonNegativeInt("round");
    long predicted = r.readLong("predicted bytes");
    if (predicted < ReduceAssignment.UNKNOWN_SIZE) {
      throw new MalformedMessageException("predicted bytes " + predicted + " below " + ReduceAssignment.UNKNOWN_SIZE);
    }
    return new ReduceAssignment(reduceId, worker, round, predicted);
  }

  private static WireWriter writeBlockId(WireWriter w, BlockId id) {
    return w.writeString(id.appId()).writeInt(id.shuffleId()).writeInt(id.mapId()).writeInt(id.attempt())
        .writeInt(id.reduceId());
  }

  private static BlockId readBlockId(WireReader r) throws MalformedMessageException {
    return new BlockId(r.readNonEmptyString("application id"), r.readNonNegativeInt("shuffle id"),
        r.readNonNegativeInt("map id"), r.readNonNegativeInt("attempt"), r.readNonNegativeInt("reduce id"));
  }

  private static WireWriter writeWorker(WireWriter w, WorkerInfo wi) {
    return w.writeString(wi.workerId()).writeString(wi.host()).writeInt(wi.port());
  }

  private static WorkerInfo readWorker(WireReader r) throws MalformedMessageException {
    String id = r.readNonEmptyString("worker id");
    String host = r.readNonEmptyString("worker host");
    int port = r.readInt("worker port");
    if (port <= 0 || port > 65535) {
      throw new MalformedMessageException("worker port out of range: " + port);
    }
    return new WorkerInfo(id, host, port);
  }

  private static void writeStrings(WireWriter w, List<String> list) {
    w.writeInt(list.size());
    for (String s : list) {
      w.writeString(s);
    }
  }

  private static List<String> readStrings(WireReader r, String what) throws MalformedMessageException {
    return readList(r, what, 2, () -> r.readString(what));
  }
}
