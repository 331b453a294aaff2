package org.scache.master;

import java.util.Optional;
import org.scache.common.Clock;
import org.scache.common.ScacheException;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
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
    WorkerRegistry workers = new WorkerRegistry(clock, conf.get(ScacheOptions.MASTER_WORKER_EXPIRY));
    ApplicationRegistry applications = new ApplicationRegistry(clock, conf.get(ScacheOptions.MASTER_TOMBSTONE_TTL),
        applicationStore, true).limitPerUser(conf.get(ScacheOptions.MASTER_APPLICATIONS_PER_USER_MAX));
    ShuffleBudget budget = ShuffleBudget.of(conf.get(ScacheOptions.MASTER_SHUFFLE_STATE_MAX),
        conf.get(ScacheOptions.MASTER_SHUFFLE_STATE_APPLICATION_SHARE), Runtime.getRuntime().maxMemory(),
        applications::ownerOf);
    ShuffleRegistry shuffles = new ShuffleRegistry(budget);
    CoScheduler coScheduler = new CoScheduler(conf.get(ScacheOptions.MASTER_SCHEDULE_OBSERVATION_THRESHOLD),
        conf.get(ScacheOptions.MASTER_SCHEDULE_SLOTS_PER_WORKER),
        conf.get(ScacheOptions.MASTER_SCHEDULE_BALANCE_AT_MAP_END), clock);
    int placed = 0;
    int kept = 0;
    for (ShuffleStore.Stored stored : shuffleStore.load()) {
      if (!applications.isRegistered(stored.spec().appId())) {
        continue;
      }
      try {
        shuffles.register(stored.spec(), s -> {
          stored.placement().ifPresent(s::schedule);
          return null;
        });
        kept++;
        placed += stored.placement().isPresent() ? 1 : 0;
        stored.placement().ifPresent(p -> coScheduler.rememberPlaced(stored.spec(), p));
      } catch (ScacheException e) {
        LOG.warn("shuffle {} of {} is not taken over: {}", stored.spec().shuffleId(), stored.spec().appId(),
            e.getMessage());
      }
    }
    if (kept > 0 || applications.size() > 0) {
      LOG.info("taken over: {} applications, {} shuffles, {} of them placed", applications.size(), kept, placed);
    }
    MasterRequests requests = new MasterRequests(workers, applications, shuffles, coScheduler,
        new IncompleteRounds(), notifier, conf.get(ScacheOptions.MASTER_HEARTBEAT_INTERVAL).toMillis(), clock,
        metrics, shuffleStore, ApplicationAdmission.from(conf, applications, clock));
    return new MasterTerm(workers, applications, shuffles, requests,
        new StatusViews(workers, applications, shuffles, clock));
  }

  /** Ends the term: its registries are dropped (what they kept stays kept). */
  void end() {
    applications.close();
  }
}
