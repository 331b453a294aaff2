package org.scache.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledHeapByteBuf;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.scache.common.BlockId;
import org.scache.common.Clock;
import org.scache.common.ScacheException;
import org.scache.common.WorkerInfo;
import org.scache.common.auth.Credentials;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.ha.Locator;
import org.scache.common.network.ClientConnections;
import org.scache.common.network.ClientTransport;
import org.scache.common.network.Reply;
import org.scache.common.protocol.AskBlockRoom;
import org.scache.common.protocol.BlockRoom;
import org.scache.common.protocol.BlocksData;
import org.scache.common.protocol.GetBlock;
import org.scache.common.protocol.GetReduceInput;
import org.scache.common.protocol.GetScheduleResult;
import org.scache.common.protocol.GetWorkerStats;
import org.scache.common.protocol.HoldCopies;
import org.scache.common.protocol.ListWorkers;
import org.scache.common.protocol.MapFinished;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.PinReduceInput;
import org.scache.common.protocol.PinReduceInputPart;
import org.scache.common.protocol.PutBlock;
import org.scache.common.protocol.ReadInPlace;
import org.scache.common.protocol.ReduceCommitted;
import org.scache.common.protocol.RegisterApplication;
import org.scache.common.protocol.RegisterShuffle;
import org.scache.common.protocol.RemoveApplication;
import org.scache.common.protocol.ReportSamples;
import org.scache.common.protocol.ScheduleResult;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.UnregisterShuffle;
import org.scache.common.protocol.WorkerStats;
import org.scache.common.protocol.Workers;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.FinalAttempt;
import org.scache.common.shuffle.MapSample;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;

/**
 * The API a framework uses to shuffle through SCache, for one application: register shuffles, put
 * map output blocks on this node's worker, declare maps finished, and read a block or a reduce's
 * whole input from any node. Every call has a blocking and an async form, reuses connections,
 * signs its requests with the application's secret, retries transient failures, and fails with a
 * {@link ScacheException} that carries the status.
 */
public final class ScacheClient implements AutoCloseable {
  private final String appId;
  private final Credentials credentials;
  /** A submitter credential sent with the registration (empty: none). */
  private final String submitterCredential;
  /**
   * A peer to call, whether a call waits out a master failover (the master answers it, directly or not), and
   * whether a NOT_READY answer is tried again after the usual backoff or given to the caller at once.
   */
  private record Target(Locator locator, boolean waitsForFailover, boolean retriesNotReady) {
    Target(Locator locator, boolean waitsForFailover) {
      this(locator, waitsForFailover, true);
    }
  }

  /** The pause before asking again for a placement the master answered NOT_READY. */
  private static final long PLACEMENT_ASK_AGAIN_MILLIS = 5;

  private final Locator masterLocator;
  private final Target master;
  /** The master, a NOT_READY answer given back at once (the caller asks again when it chooses). */
  private final Target masterAnswerNow;
  private final Target worker;
  /** The node's worker, for a call that the worker forwards to the master. */
  private final Target workerToMaster;
  private final String workerAddress;
  private final Duration failoverWait;
  private final Duration timeout;
  private final int maxAttempts;
  private final Duration backoff;
  private final Duration maxBackoff;
  private final Duration busyTimeout;
  /** How long a put answered RETRY_LATER by the node's worker is tried there before it goes to another. */
  private final Duration putBusyTimeout;
  private final RedirectedPuts redirected;
  private final ClientConnections connections;
  private final SharedMemoryPath local;
  /**
   * Where the blocks of reduce inputs read in parts or in place are read: those pinned in the worker's shared
   * memory in place, the others copied to buffers reused as their blocks are released (past the capacity, to the
   * heap).
   */
  private final ReduceInputBuffers readBuffers;
  private final Clock clock;
  /**
   * The payload of a request that carries none: such a request goes out without a buffer, so a
   * blocking connection (a task's) sends it without touching Netty's.
   */
  private static final Supplier<ByteBuf> NO_PAYLOAD = () -> Unpooled.EMPTY_BUFFER;

  private ScacheClient(ScacheConf conf, String appId, byte[] secret, ClientConnections connections, Clock clock) {
    this.appId = appId;
    this.clock = clock;
    this.credentials = Credentials.application(appId, secret);
    this.submitterCredential = conf.get(ScacheOptions.CLIENT_SUBMITTER_CREDENTIAL);
    this.masterLocator = Locator.master(conf, ScacheOptions.CLIENT_MASTER_ADDRESS);
    this.workerAddress = conf.get(ScacheOptions.CLIENT_WORKER_ADDRESS);
    boolean failover = masterLocator.canMove();
    this.master = new Target(masterLocator, failover);
    this.masterAnswerNow = new Target(masterLocator, failover, false);
    this.worker = new Target(Locator.fixed(workerAddress), false);
    this.workerToMaster = new Target(worker.locator(), failover);
    this.failoverWait = conf.get(ScacheOptions.CLIENT_MASTER_FAILOVER_WAIT);
    this.timeout = conf.get(ScacheOptions.CLIENT_REQUEST_TIMEOUT);
    this.maxAttempts = Math.max(1, conf.get(ScacheOptions.CLIENT_RETRY_MAX));
    this.backoff = conf.get(ScacheOptions.CLIENT_RETRY_BACKOFF);
    this.maxBackoff = conf.get(ScacheOptions.CLIENT_RETRY_BACKOFF_MAX);
    this.busyTimeout = conf.get(ScacheOptions.CLIENT_RETRY_BUSY_TIMEOUT);
    Duration redirectAfter = conf.get(ScacheOptions.CLIENT_PUT_REDIRECT_BUSY);
    this.putBusyTimeout = redirectAfter.compareTo(busyTimeout) < 0 ? redirectAfter : busyTimeout;
    this.redirected = new RedirectedPuts(workerAddress, this::workersAsync, clock);
    this.connections = connections;
    this.local = new SharedMemoryPath(conf, connections, workerAddress, appId, credentials, timeout);
    this.readBuffers = ReduceInputBuffers.inPlace(
        new BlockBuffers(conf.get(ScacheOptions.CLIENT_READ_PART_BUFFERS)));
  }

  /**
   * A client for application {@code appId}, whose requests are signed with {@code secret}, on the Netty
   * transport: {@link #create(ScacheConf, String, byte[], ClientTransport)} with {@link ClientTransport#NETTY}.
   */
  public static ScacheClient create(ScacheConf conf, String appId, byte[] secret) {
    return create(conf, appId, secret, ClientTransport.NETTY);
  }

  /**
   * A client for application {@code appId}, whose requests are signed with {@code secret}, talking to the master
   * and the workers over {@code transport}: {@link ClientTransport#NETTY} in a long-lived process that makes many
   * calls at once, {@link ClientTransport#BLOCKING} in a short-lived one that makes a few (a task JVM).
   */
  public static ScacheClient create(ScacheConf conf, String appId, byte[] secret, ClientTransport transport) {
    Objects.requireNonNull(conf, "conf");
    Objects.requireNonNull(transport, "transport");
    return new ScacheClient(conf, appId, secret, ClientConnections.of(transport, conf, "scache-client"),
        Clock.SYSTEM);
  }

  /**
   * A client that sends through {@code connections} and reads time from {@code clock}: for tests, and
   * for embedding a client where connections are shared. The client closes {@code connections}.
   */
  static ScacheClient create(ScacheConf conf, String appId, byte[] secret, ClientConnections connections,
      Clock clock) {
    Objects.requireNonNull(conf, "conf");
    return new ScacheClient(conf, appId, secret, Objects.requireNonNull(connections, "connections"),
        Objects.requireNonNull(clock, "clock"));
  }

  /**
   * Opens the connection to this node's worker and, where it shares its memory, maps it, ahead of the first put or
   * read, which would otherwise wait for both: a process that will shuffle calls it while it has nothing else to do.
   * The future fails as opening failed (an application the worker does not know yet, for example); the first call
   * that needs the worker then opens again.
   */
  public CompletableFuture<Void> openWorkerPath() {
    return local.open();
  }

  public String appId() {
    return appId;
  }

  // ---------------------------------------------------------------- application and shuffles

  /**
   * Registers this application and its secret with the master, with the submitter credential of
   * {@code scache.client.submitter.credential} if set; repeating it is harmless.
   */
  public void registerApplication() {
    join(registerApplicationAsync());
  }

  public CompletableFuture<Void> registerApplicationAsync() {
    return ack(master, () -> new RegisterApplication(appId, credentials.secretCopy(), submitterCredential));
  }

  public void registerShuffle(int shuffleId, int numMaps, int numReduces, PartitionerKind partitioner) {
    join(registerShuffleAsync(shuffleId, numMaps, numReduces, partitioner));
  }

  public CompletableFuture<Void> registerShuffleAsync(int shuffleId, int numMaps, int numReduces,
      PartitionerKind partitioner) {
    return registerShuffleAsync(shuffleId, numMaps, numReduces, partitioner, ShuffleHints.NONE);
  }

  /** Registers a shuffle with what the framework knows for predicting and placing its reduces. */
  public void registerShuffle(int shuffleId, int numMaps, int numReduces, PartitionerKind partitioner,
      ShuffleHints hints) {
    join(registerShuffleAsync(shuffleId, numMaps, numReduces, partitioner, hints));
  }

  public CompletableFuture<Void> registerShuffleAsync(int shuffleId, int numMaps, int numReduces,
      PartitionerKind partitioner, ShuffleHints hints) {
    ShuffleSpec spec = new ShuffleSpec(appId, shuffleId, numMaps, numReduces, partitioner, clock.millis(),
        hints.mapInputBytes(), hints.stageId(), hints.predictor(), hints.slotsPerWorker(), hints.readsRanges(),
        hints.reducesAfterMaps(), hints.mapsPerTask());
    return ack(master, () -> new RegisterShuffle(spec));
  }

  /**
   * Reports the sampling results of some maps of a shuffle (paper IV-A1), before or during its map
   * stage; once every map is sampled, a sampling shuffle is placed.
   */
  public void reportSamples(int shuffleId, List<MapSample> samples) {
    join(reportSamplesAsync(shuffleId, samples));
  }

  public CompletableFuture<Void> reportSamplesAsync(int shuffleId, List<MapSample> samples) {
    List<MapSample> copy = List.copyOf(samples);
    return ack(master, () -> new ReportSamples(appId, shuffleId, copy));
  }

  /**
   * Where each reduce of the shuffle is placed; fails with NOT_READY (after the client's retries)
   * while the master has not placed it yet.
   */
  public ShufflePlacement getScheduleResult(int shuffleId) {
    return join(getScheduleResultAsync(shuffleId));
  }

  public CompletableFuture<ShufflePlacement> getScheduleResultAsync(int shuffleId) {
    return call(master, () -> new GetScheduleResult(appId, shuffleId), NO_PAYLOAD)
        .thenApply(r -> {
          ScheduleResult answer = r.as(ScheduleResult.class);
          r.release();
          return answer.placement();
        });
  }

  /**
   * Where each reduce of the shuffle is placed, once every map of the shuffle has ended: the master may move
   * reduces at each map's end, so the placement is final only then. One ask that the master answers as soon as the
   * last map's end reaches it and the shuffle is placed, or with NOT_READY once {@code wait} is over (asked again
   * while time is left, when the master's wait is shorter). What a scheduler waits on when it is about to launch
   * the reduces, whose maps' ends it did not wait for.
   */
  public CompletableFuture<ShufflePlacement> awaitScheduleResult(int shuffleId, Duration wait) {
    CompletableFuture<ShufflePlacement> result = new CompletableFuture<>();
    askForSchedule(shuffleId, clock.nanos() + wait.toNanos(), result);
    return result;
  }

  private void askForSchedule(int shuffleId, long deadlineNanos, CompletableFuture<ShufflePlacement> result) {
    // the master's answer must come before this client's request times out
    long waitMillis = Math.max(0, Math.min(Math.min(TimeUnit.NANOSECONDS.toMillis(deadlineNanos - clock.nanos()),
        timeout.toMillis() / 2), GetScheduleResult.MAX_WAIT_MILLIS));
    GetScheduleResult ask = new GetScheduleResult(appId, shuffleId, waitMillis);
    call(masterAnswerNow, () -> ask, NO_PAYLOAD).whenComplete((r, e) -> {
      if (e == null) {
        ScheduleResult answer = r.as(ScheduleResult.class);
        r.release();
        result.complete(answer.placement());
        return;
      }
      ScacheException se = ScacheException.from(e);
      if (se.status() != Status.NOT_READY || deadlineNanos - clock.nanos() <= 0 || waitMillis == 0) {
        result.completeExceptionally(se);
        return;
      }
      // a master answers NOT_READY at the end of the wait it was given: ask again at once, but not in a tight loop
      CompletableFuture.delayedExecutor(PLACEMENT_ASK_AGAIN_MILLIS, TimeUnit.MILLISECONDS)
          .execute(() -> askForSchedule(shuffleId, deadlineNanos, result));
    });
  }

  public void unregisterShuffle(int shuffleId) {
    join(ack(master, () -> new UnregisterShuffle(appId, shuffleId)));
  }

  /** Frees everything the application stored, on every worker. */
  public void removeApplication() {
    join(ack(master, () -> new RemoveApplication(appId)));
  }

  /** The live workers. */
  public List<WorkerInfo> workers() {
    return join(workersAsync());
  }

  /** How many more blocks the live workers hold, for one owner and in all. */
  public BlockRoom blockRoom() {
    return join(call(master, AskBlockRoom::new, NO_PAYLOAD).thenApply(r -> r.as(BlockRoom.class)));
  }

  private CompletableFuture<List<WorkerInfo>> workersAsync() {
    return call(master, ListWorkers::new, NO_PAYLOAD).thenApply(r -> r.as(Workers.class).workers());
  }

  // ---------------------------------------------------------------- map side

  /** Stores {@code data} (from its position to its limit) as block {@code id} on this node's worker. */
  public void putBlock(BlockId id, ByteBuffer data) {
    join(putBlockAsync(id, data));
  }

  public void putBlock(BlockId id, byte[] data) {
    putBlock(id, ByteBuffer.wrap(data));
  }

  /** Async {@link #putBlock}; {@code data} must not change until the future completes. */
  public CompletableFuture<Void> putBlockAsync(BlockId id, ByteBuffer data) {
    return putBlockAsync(id, List.of(data));
  }

  /**
   * Async {@link #putBlock} of a block given in parts, stored as their bytes one after the other (a
   * writer that collects a block in chunks need not join them first); no part may change until the
   * future completes.
   */
  public CompletableFuture<Void> putBlockAsync(BlockId id, List<ByteBuffer> parts) {
    requireOwn(id);
    List<ByteBuffer> views = parts.stream().map(ByteBuffer::duplicate).toList();
    Supplier<ByteBuf> payload = () -> Unpooled.wrappedBuffer(views.stream().map(ByteBuffer::duplicate)
        .toArray(ByteBuffer[]::new));
    CompletableFuture<Void> here = local.put(id, views, () -> call(worker, () -> new PutBlock(id), payload,
        putBusyTimeout).thenAccept(Reply::release));
    return here.exceptionallyCompose(e -> {
      ScacheException refusal = ScacheException.from(e);
      if (!RedirectedPuts.isCapacity(refusal.status())) {
        return CompletableFuture.failedFuture(refusal);
      }
      return redirected.putElsewhere(id, refusal,
          address -> ack(new Target(Locator.fixed(address), false), () -> new PutBlock(id), payload));
    });
  }

  /** Declares {@code attempt} the final attempt of the map, after all its blocks were put. */
  public void mapFinished(int shuffleId, int mapId, int attempt) {
    join(mapFinishedAsync(shuffleId, mapId, attempt));
  }

  public CompletableFuture<Void> mapFinishedAsync(int shuffleId, int mapId, int attempt) {
    Supplier<Message> finished = () -> new MapFinished(appId, shuffleId, mapId, attempt);
    // through every other worker that took blocks of the attempt first: each tells the master the sizes
    // of the blocks it holds before the map's end, so the master has them all when the node's worker is done
    CompletableFuture<Void> others = CompletableFuture.completedFuture(null);
    for (String address : redirected.takeWorkersOf(shuffleId, mapId, attempt)) {
      Target elsewhere = new Target(Locator.fixed(address), masterLocator.canMove());
      others = others.thenCompose(v -> ack(elsewhere, finished));
    }
    return others.thenCompose(v -> ack(workerToMaster, finished));
  }

  // ---------------------------------------------------------------- reduce side

  /**
   * Declares that reduce {@code reduceId} has committed its output: its input is read for the last
   * time, and every worker frees its blocks (read once). Call it only when the reduce can no longer
   * be retried.
   */
  public void reduceCommitted(int shuffleId, int reduceId) {
    join(reduceCommittedAsync(shuffleId, reduceId));
  }

  public CompletableFuture<Void> reduceCommittedAsync(int shuffleId, int reduceId) {
    return ack(master, () -> new ReduceCommitted(appId, shuffleId, reduceId));
  }

  /**
   * Declares that the shuffle is read map by map, each map's output on the host its map ran on, not by reduce where
   * the master placed its reduces: the workers stop prefetching its blocks, which would only take the links its reads
   * need. Its reduces can still be read; a block not copied is read from its holder.
   */
  public CompletableFuture<Void> readInPlaceAsync(int shuffleId) {
    return ack(master, () -> new ReadInPlace(appId, shuffleId));
  }

  /**
   * Holds back ({@code held}) or lets go the workers' copies of the shuffle's blocks to its reduces' hosts: while the
   * application may still read it where its maps ran, copies could only take the links its other shuffles need. A
   * shuffle let go is copied as if never held; its reduces can be read all the while, from the blocks' holders.
   */
  public CompletableFuture<Void> holdCopiesAsync(int shuffleId, boolean held) {
    return ack(master, () -> new HoldCopies(appId, shuffleId, held));
  }

  /** The bytes of block {@code id}, read through this node's worker from wherever it is stored. */
  public byte[] getBlock(BlockId id) {
    ByteBuffer b = join(getBlockAsync(id));
    if (b.hasArray() && b.arrayOffset() == 0 && b.position() == 0 && b.remaining() == b.array().length) {
      return b.array();
    }
    byte[] out = new byte[b.remaining()];
    b.get(out);
    return out;
  }

  public CompletableFuture<ByteBuffer> getBlockAsync(BlockId id) {
    requireOwn(id);
    return local.get(id, () -> call(worker, () -> new GetBlock(id), NO_PAYLOAD)
        .thenApply(r -> copyOut(r.payload())));
  }

  /**
   * Every map's block for reduce {@code reduceId}, through this node's worker, once every map has
   * finished; fails with INPUT_INCOMPLETE when some map has not finished within the worker's wait.
   */
  public ReduceInput getReduceInput(int shuffleId, int reduceId) {
    return join(getReduceInputAsync(shuffleId, reduceId));
  }

  public CompletableFuture<ReduceInput> getReduceInputAsync(int shuffleId, int reduceId) {
    return getReduceInputAsync(shuffleId, reduceId, GetReduceInput.WORKER_DEFAULT_WAIT);
  }

  /**
   * Reduce {@code reduceId}'s input, waiting at most {@code maxWait} (keep it below the request
   * timeout) for every map to finish; {@link Duration#ZERO} answers at once with the blocks of the
   * maps finished so far ({@link ReduceInput#isComplete()} tells which it is).
   */
  public ReduceInput getReduceInput(int shuffleId, int reduceId, Duration maxWait) {
    return join(getReduceInputAsync(shuffleId, reduceId, maxWait));
  }

  public CompletableFuture<ReduceInput> getReduceInputAsync(int shuffleId, int reduceId, Duration maxWait) {
    if (maxWait.isNegative()) {
      throw new IllegalArgumentException("wait must not be negative: " + maxWait);
    }
    return getReduceInputAsync(shuffleId, reduceId, maxWait.toMillis());
  }

  private CompletableFuture<ReduceInput> getReduceInputAsync(int shuffleId, int reduceId, long waitMillis) {
    return getReduceInputAsync(shuffleId, reduceId, waitMillis, ReduceInputBuffers.oneArray());
  }

  private CompletableFuture<ReduceInput> getReduceInputAsync(int shuffleId, int reduceId, long waitMillis,
      ReduceInputBuffers into) {
    return local.reduceInput(new PinReduceInput(appId, shuffleId, reduceId, waitMillis), into, shuffleId,
        reduceId, () -> getReduceInputOverSocket(shuffleId, reduceId, waitMillis));
  }

  /**
   * Reduce {@code reduceId}'s whole input, as {@link #getReduceInput(int, int)} reads it, without the
   * copy into one array: the blocks the worker holds in its shared memory are read where they lie,
   * the others copied into the client's reused
   * buffers. Release each block once it has been read ({@link ReduceInput#release(ReduceInput.Block)}
   * or {@link ReduceInput#release()}), and keep this client open until then.
   */
  public ReduceInput getReduceInputInPlace(int shuffleId, int reduceId) {
    return join(getReduceInputAsync(shuffleId, reduceId, GetReduceInput.WORKER_DEFAULT_WAIT, readBuffers));
  }

  /**
   * Reduce {@code reduceId}'s input read in parts as its blocks land on this node's worker, so that
   * the reduce works on the first while the others still arrive; every map's block comes exactly once.
   * Through the worker's shared memory; where that cannot be used, the whole input comes as one part.
   */
  public ReduceInputParts readReduceInputInParts(int shuffleId, int reduceId) {
    return readReduceInputInParts(shuffleId, reduceId, List.of());
  }

  /**
   * As {@link #readReduceInputInParts(int, int)}, naming the attempt of each map whose block the reduce takes
   * (its framework's record of the final attempts; the blocks of other attempts are not given): a worker that
   * holds all those blocks gives them without asking the master where the reduce's blocks are, which saves a
   * round trip to the master on every read of an input prefetched whole; and once every named map's block has come,
   * the parts end without asking the worker whether more are left.
   */
  public ReduceInputParts readReduceInputInParts(int shuffleId, int reduceId, List<FinalAttempt> finalAttempts) {
    long wait = GetReduceInput.WORKER_DEFAULT_WAIT;
    List<FinalAttempt> attempts = List.copyOf(finalAttempts);
    Set<Integer> expectedMaps = attempts.stream().map(FinalAttempt::mapId).collect(Collectors.toSet());
    return new ReduceInputParts(have -> {
      AtomicBoolean whole = new AtomicBoolean();
      return local.reduceInput(new PinReduceInputPart(appId, shuffleId, reduceId, wait, List.copyOf(have),
          attempts),
          readBuffers, shuffleId, reduceId, () -> {
            whole.set(true);
            return getReduceInputOverSocket(shuffleId, reduceId, wait);
          }).thenApply(input -> new ReduceInputParts.Part(input, whole.get()));
    }, expectedMaps);
  }

  private CompletableFuture<ReduceInput> getReduceInputOverSocket(int shuffleId, int reduceId, long waitMillis) {
    return call(worker, () -> new GetReduceInput(appId, shuffleId, reduceId, waitMillis),
        NO_PAYLOAD).thenApply(r -> {
          BlocksData meta = r.as(BlocksData.class);
          if (meta.totalBytes() != r.payloadBytes()) {
            r.release();
            throw new ScacheException(Status.MALFORMED_MESSAGE, "the worker sent "
                + meta.totalBytes() + " bytes of blocks in a payload of another length");
          }
          ByteBuffer all = copyOut(r.payload());
          List<ReduceInput.Block> blocks = new ArrayList<>(meta.blocks().size());
          int offset = 0;
          for (BlockSize b : meta.blocks()) {
            blocks.add(new ReduceInput.Block(b.blockId(), all.slice(offset, (int) b.size())));
            offset += (int) b.size();
          }
          return new ReduceInput(meta.numMaps(), meta.finishedMaps(), blocks);
        });
  }

  /** Counters of this node's worker. */
  public Map<String, Long> workerStats() {
    return join(call(worker, GetWorkerStats::new, NO_PAYLOAD)
        .thenApply(r -> r.as(WorkerStats.class).counters()));
  }

  @Override
  public void close() {
    local.close();
    connections.close();
    masterLocator.close();
  }

  // ---------------------------------------------------------------- plumbing

  private void requireOwn(BlockId id) {
    if (!id.appId().equals(appId)) {
      throw new IllegalArgumentException("block " + id + " does not belong to application " + appId);
    }
  }

  private CompletableFuture<Void> ack(Target target, Supplier<Message> request) {
    return ack(target, request, NO_PAYLOAD);
  }

  private CompletableFuture<Void> ack(Target target, Supplier<Message> request, Supplier<ByteBuf> payload) {
    return call(target, request, payload).thenAccept(Reply::release);
  }

  /**
   * Sends the request, trying again after a transient failure, up to the configured attempts. A
   * worker that answers RETRY_LATER (its memory and spill disk are full) is tried again, backing
   * off exponentially up to {@code scache.client.retry.backoff.max}, until
   * {@code scache.client.retry.busy.timeout} has passed since the first try.
   */
  private CompletableFuture<Reply> call(Target target, Supplier<Message> request, Supplier<ByteBuf> payload) {
    return call(target, request, payload, busyTimeout);
  }

  /** {@link #call}, a RETRY_LATER answer being tried again for at most {@code busyTimeout}. */
  private CompletableFuture<Reply> call(Target target, Supplier<Message> request, Supplier<ByteBuf> payload,
      Duration busyTimeout) {
    CompletableFuture<Reply> result = new CompletableFuture<>();
    attempt(target, request, payload, busyTimeout, 1, 0, clock.nanos(), result);
    return result;
  }

  private void attempt(Target target, Supplier<Message> request, Supplier<ByteBuf> payload, Duration busyTimeout,
      int n, int busy, long startNanos, CompletableFuture<Reply> result) {
    String address;
    CompletableFuture<Reply> sent;
    try {
      address = target.locator().address();
      sent = connections.get(address).thenCompose(c -> payload == NO_PAYLOAD
          ? c.call(request.get(), Optional.of(credentials), timeout)
          : c.call(request.get(), Optional.of(credentials), payload.get(), timeout));
    } catch (RuntimeException e) {
      address = target.locator().toString();
      sent = CompletableFuture.failedFuture(ScacheException.from(e));
    }
    String to = address;
    sent.whenComplete((r, e) -> {
      if (e == null) {
        result.complete(r);
        return;
      }
      ScacheException se = ScacheException.from(e);
      if (se.status() == Status.RETRY_LATER) {
        long waited = clock.nanos() - startNanos;
        if (waited >= busyTimeout.toNanos()) {
          result.completeExceptionally(new ScacheException(se.status(), "the worker at " + to
              + " stayed busy for " + TimeUnit.NANOSECONDS.toSeconds(waited) + " s ("
              + ScacheOptions.CLIENT_RETRY_BUSY_TIMEOUT.key() + "); last answer: " + se.getMessage()));
          return;
        }
        long delay = Math.min(maxBackoff.toMillis(), backoff.toMillis() << Math.min(busy, 20));
        delay = Math.max(1, Math.min(delay, TimeUnit.NANOSECONDS.toMillis(busyTimeout.toNanos() - waited) + 1));
        CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS)
            .execute(() -> attempt(target, request, payload, busyTimeout, n, busy + 1, startNanos, result));
        return;
      }
      boolean answeredNow = se.status() == Status.NOT_READY && !target.retriesNotReady();
      if (se.status().isTransient() && !answeredNow) {
        target.locator().failed(to);
      }
      long elapsed = clock.nanos() - startNanos;
      // the master answers the call, or the worker could not ask it (NOT_LEADER): wait for a new leader
      boolean waits = masterLocator.canMove()
          && (target.waitsForFailover() || se.status() == Status.NOT_LEADER);
      boolean failingOver = waits && elapsed < failoverWait.toNanos();
      if (!se.status().isTransient() || answeredNow || (n >= maxAttempts && !failingOver)) {
        String limit = waits ? ScacheOptions.CLIENT_MASTER_FAILOVER_WAIT.key()
            : ScacheOptions.CLIENT_RETRY_MAX.key();
        result.completeExceptionally(n == 1 ? se : new ScacheException(se.status(), "gave up on " + to
            + " after " + n + " tries in " + TimeUnit.NANOSECONDS.toSeconds(elapsed) + " s (" + limit
            + "); the last: " + se.detail(), se));
        return;
      }
      long delay = Math.min(backoff.toMillis() << Math.min(n - 1, 10),
          failingOver ? Math.max(backoff.toMillis(), maxBackoff.toMillis()) : Long.MAX_VALUE);
      CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS)
          .execute(() -> attempt(target, request, payload, busyTimeout, n + 1, busy, startNanos, result));
    });
  }

  /** The payload as a heap buffer of its own: the array itself when the payload is one unpooled array, else a copy. */
  private static ByteBuffer copyOut(ByteBuf payload) {
    if (payload instanceof UnpooledHeapByteBuf) {
      // a blocking connection reads every answer into an array of its own, which nothing recycles
      return ByteBuffer.wrap(payload.array(), payload.arrayOffset() + payload.readerIndex(), payload.readableBytes())
          .slice();
    }
    try {
      ByteBuffer out = ByteBuffer.allocate(payload.readableBytes());
      payload.getBytes(payload.readerIndex(), out);
      return out.flip();
    } finally {
      payload.release();
    }
  }

  private static <T> T join(CompletableFuture<T> f) {
    try {
      return f.join();
    } catch (RuntimeException e) {
      throw ScacheException.from(e);
    }
  }
}
