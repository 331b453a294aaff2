package org.scache.master;

import java.util.List;
import java.util.Optional;
import org.scache.common.Clock;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a master knows while it leads, and the handling of requests over it: built when it
 * starts leading, from the kept state (applications, shuffles, placements), and dropped when it
 * stops. Workers, block sizes and finished maps come back as the workers register with it again.
 */
final class MasterTerm {
  private static final Logger LOG = LoggerFactory.getLogger(MasterTerm.class);

  final WorkerRegistry workers;
  final ApplicationRegistry applications;
  final ShuffleRegistry shuffles;
  final MasterRequests requests;
  final StatusViews views;

  private MasterTerm(WorkerRegistry workers, ApplicationRegistry applications, ShuffleRegistry shuffles,
      MasterRequests requests, StatusViews views) {
    this.workers = workers;
    this.applications = applications;
    this.shuffles = shuffles;
    this.requests = requests;
    this.views = views;
  }

  /** Begins a term: reads back what {@code applicationStore} and {@code shuffleStore} kept. */
  static MasterTerm begin(ScacheConf conf, Clock clock, Optional<? extends ApplicationStore> applicationStore,
      ShuffleStore shuffleStore, WorkerNotifier notifier, MasterMetrics metrics) {
    return begin(conf, clock, applicationStore, shuffleStore, notifier, metrics, SkippedRecords.logged());
  }

  /**
   * Begins a term: reads back what {@code applicationStore} and {@code shuffleStore} kept, within the limits a
   * request must keep to ({@link StateLimits}, the shuffle budget), reporting to {@code skipped} what it does not
   * take over.
   */
  static MasterTerm begin(ScacheConf conf, Clock clock, Optional<? extends ApplicationStore> applicationStore,
      ShuffleStore shuffleStore, WorkerNotifier notifier, MasterMetrics metrics, SkippedRecords skipped) {
    StateLimits limits = StateLimits.from(conf);
    WorkerRegistry workers = new WorkerRegistry(clock, conf.get(ScacheOptions.MASTER_WORKER_EXPIRY));
    ApplicationRegistry applications = new ApplicationRegistry(clock, conf.get(ScacheOptions.MASTER_TOMBSTONE_TTL),
        limits, applicationStore, skipped).limitPerUser(conf.get(ScacheOptions.MASTER_APPLICATIONS_PER_USER_MAX));
    ShuffleBudget budget = ShuffleBudget.of(conf.get(ScacheOptions.MASTER_SHUFFLE_STATE_MAX),
        conf.get(ScacheOptions.MASTER_SHUFFLE_STATE_APPLICATION_SHARE), Runtime.getRuntime().maxMemory(),
        applications::ownerOf);
    ShuffleRegistry shuffles = new ShuffleRegistry(budget);
    CoScheduler coScheduler = new CoScheduler(conf.get(ScacheOptions.MASTER_SCHEDULE_OBSERVATION_THRESHOLD),
        conf.get(ScacheOptions.MASTER_SCHEDULE_SLOTS_PER_WORKER),
        conf.get(ScacheOptions.MASTER_SCHEDULE_BALANCE_AT_MAP_END), clock);
    PlacementFrameLimit frames = new PlacementFrameLimit(limits.maxFrameMetaBytes());
    TakeOver takeOver = new TakeOver(applications, shuffles, coScheduler, frames);
    shuffleStore.load(takeOver, skipped);
    if (takeOver.kept > 0 || applications.size() > 0) {
      LOG.info("taken over: {} applications, {} shuffles, {} of them placed; {} kept records skipped",
          applications.size(), takeOver.kept, takeOver.placed, skipped.count());
    }
    MasterRequests requests = new MasterRequests(workers, applications, shuffles, coScheduler,
        new IncompleteRounds(), notifier, conf.get(ScacheOptions.MASTER_HEARTBEAT_INTERVAL).toMillis(), clock,
        metrics, shuffleStore, frames, ApplicationAdmission.from(conf, applications, clock));
    return new MasterTerm(workers, applications, shuffles, requests,
        new StatusViews(workers, applications, shuffles, clock));
  }

  /** Takes over each kept shuffle as a live registration would be taken: within the budget and the frame limit. */
  private static final class TakeOver implements ShuffleStore.Loader {
    private final ApplicationRegistry applications;
    private final ShuffleRegistry shuffles;
    private final CoScheduler coScheduler;
    private final PlacementFrameLimit frames;
    int kept;
    int placed;

    TakeOver(ApplicationRegistry applications, ShuffleRegistry shuffles, CoScheduler coScheduler,
        PlacementFrameLimit frames) {
      this.applications = applications;
      this.shuffles = shuffles;
      this.coScheduler = coScheduler;
      this.frames = frames;
    }

    @Override
    public Optional<String> registered(ShuffleSpec spec) {
      if (!applications.isRegistered(spec.appId())) {
        return Optional.of("its application " + spec.appId() + " is not registered");
      }
      try {
        shuffles.register(spec, s -> frames.checkRegistration(s, List.of()), s -> null);
        kept++;
        return Optional.empty();
      } catch (ScacheException e) {
        return Optional.of(e.getMessage());
      }
    }

    @Override
    public Optional<String> placed(ShuffleSpec spec, ShufflePlacement placement) {
      if (!placement.appId().equals(spec.appId()) || placement.shuffleId() != spec.shuffleId()
          || placement.assignments().size() > spec.numReduces()) {
        return Optional.of("a placement of " + placement.assignments().size() + " reduces of " + placement.appId()
            + "/shuffle_" + placement.shuffleId() + ", kept for " + spec.appId() + "/shuffle_" + spec.shuffleId()
            + " of " + spec.numReduces() + " reduces");
      }
      shuffles.with(new ShuffleKey(spec.appId(), spec.shuffleId()), s -> {
        s.schedule(placement);
        return null;
      });
      coScheduler.rememberPlaced(spec, placement);
      placed++;
      return Optional.empty();
    }
  }

  /** Ends the term: its registries are dropped (what they kept stays kept). */
  void end() {
    applications.close();
  }
}
