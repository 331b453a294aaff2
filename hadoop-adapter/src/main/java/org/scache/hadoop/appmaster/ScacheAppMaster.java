package org.scache.hadoop.appmaster;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.ipc.CallerContext;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.MRAppMaster;
import org.apache.hadoop.mapreduce.v2.app.client.ClientService;
import org.apache.hadoop.mapreduce.v2.app.launcher.ContainerLauncher;
import org.apache.hadoop.mapreduce.v2.app.rm.ContainerAllocator;
import org.apache.hadoop.mapreduce.v2.app.rm.ScacheContainerAllocator;
import org.apache.hadoop.mapreduce.v2.util.MRWebAppUtil;
import org.apache.hadoop.util.ExitUtil;
import org.apache.hadoop.util.ShutdownHookManager;
import org.apache.hadoop.yarn.YarnUncaughtExceptionHandler;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.event.Dispatcher;
import org.scache.common.Clock;
import org.scache.hadoop.ScacheJob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MapReduce application master with SCache's job-start hook. YARN starts it when its class name
 * ends {@code yarn.app.mapreduce.am.command-opts} (the java command then runs this class, and the
 * stock class name that follows is an ignored argument). At job start it makes the job's one
 * decision: with {@code scache.enabled=true} and a master that answers, the job shuffles through
 * SCache; otherwise it runs on Hadoop's shuffle from start to end, with one warning (see
 * {@link ScacheJob#decideAtJobStart}). The decision reaches every task through {@link ShuffleChoice}.
 * A job without the switch runs exactly as under the stock application master.
 */
public class ScacheAppMaster extends MRAppMaster {
  private static final Logger LOG = LoggerFactory.getLogger(ScacheAppMaster.class);

  /** Set for a job that shuffles through SCache and can have its reduces placed; null otherwise. */
  private JobShufflePlacement placement;
  private ScacheContainerAllocator allocator;

  public ScacheAppMaster(ApplicationAttemptId attemptId, ContainerId containerId, String nmHost, int nmPort,
      int nmHttpPort, long appSubmitTime) {
    super(attemptId, containerId, nmHost, nmPort, nmHttpPort, appSubmitTime);
  }

  /** Starts the application master the way the stock {@code MRAppMaster.main} does, after SCache's decision. */
  public static void main(String[] args) {
    try {
      Thread.setDefaultUncaughtExceptionHandler(new YarnUncaughtExceptionHandler());
      ContainerId containerId = ContainerId.fromString(env(Environment.CONTAINER_ID.name()));
      String nmHost = env(Environment.NM_HOST.name());
      int nmPort = Integer.parseInt(env(Environment.NM_PORT.name()));
      int nmHttpPort = Integer.parseInt(env(Environment.NM_HTTP_PORT.name()));
      long appSubmitTime = Long.parseLong(env("APP_SUBMIT_TIME_ENV"));
      ApplicationAttemptId attemptId = containerId.getApplicationAttemptId();
      CallerContext.setCurrent(new CallerContext.Builder("mr_appmaster_" + attemptId).build());

      JobConf conf = new JobConf(new YarnConfiguration());
      conf.addResource(new Path(MRJobConfig.JOB_CONF_FILE));
      boolean scache = ScacheJob.decideAtJobStart(conf, attemptId.getApplicationId().toString());

      ScacheAppMaster appMaster = new ScacheAppMaster(attemptId, containerId, nmHost, nmPort, nmHttpPort,
          appSubmitTime);
      appMaster.throughScache = scache;
      appMaster.placeReduces = scache && placeable(conf);
      StockMain.markStarted();
      Runnable stockHook = StockMain.shutdownHook(appMaster);
      ShutdownHookManager.get().addShutdownHook(() -> {
        appMaster.signalled();
        stockHook.run();
      }, SHUTDOWN_HOOK_PRIORITY);
      MRWebAppUtil.initialize(conf);
      String user = env(Environment.USER.name());
      conf.set(MRJobConfig.USER_NAME, user);
      initAndStartAppMaster(appMaster, conf, user);
    } catch (Throwable t) {
      LOG.error("Error starting the SCache MapReduce application master", t);
      ExitUtil.terminate(1, t);
    }
  }

  private boolean throughScache;
  private boolean placeReduces;

  /** Whether reduces of a job that shuffles through SCache are placed: not in an uber job (all tasks run here). */
  static boolean placeable(JobConf conf) {
    return !conf.getBoolean(MRJobConfig.JOB_UBERTASK_ENABLE, false) && conf.getNumReduceTasks() > 0;
  }

  @Override
  protected Dispatcher createDispatcher() {
    return throughScache ? new FetchFailureGuardDispatcher(this::getContext) : super.createDispatcher();
  }

  @Override
  protected ContainerAllocator createContainerAllocator(ClientService clientService, AppContext context) {
    if (!placeReduces) {
      return super.createContainerAllocator(clientService, context);
    }
    JobConf conf = new JobConf(getConfig());
    placement = new JobShufflePlacement(conf, getAppID().toString(), shuffleSecret(), Clock.SYSTEM);
    allocator = new ScacheContainerAllocator(clientService, context, createPreemptionPolicy(conf),
        placement.placement(), placement.launchLead());
    return allocator;
  }

  @Override
  protected ContainerLauncher createContainerLauncher(AppContext context) {
    return placeReduces ? new ServiceMetadataRecordingLauncher(context, placement.nodeWorkers())
        : super.createContainerLauncher(context);
  }

  @Override
  protected void startJobs() {
    if (placement != null) {
      placement.start(getContext().getJob(getJobId()));
    }
    super.startJobs();
  }

  @Override
  public void notifyIsLastAMRetry(boolean isLastAMRetry) {
    super.notifyIsLastAMRetry(isLastAMRetry);
    if (allocator != null) {
      allocator.setShouldUnregister(isLastAMRetry);
    }
  }

  @Override
  protected void serviceStop() throws Exception {
    try {
      super.serviceStop();
    } finally {
      if (placement != null) {
        placement.close();
      }
    }
  }

  private void signalled() {
    if (allocator != null) {
      allocator.setSignalled(true);
    }
  }

  /** The job's shuffle secret, as tasks get it: the shuffle key, else the job token's password. */
  private byte[] shuffleSecret() {
    byte[] key = TokenCache.getShuffleSecretKey(getCredentials());
    return key != null ? key : TokenCache.getJobToken(getCredentials()).getPassword();
  }

  private static String env(String name) throws IOException {
    String value = System.getenv(name);
    if (value == null) {
      throw new IOException("the application master's environment has no " + name);
    }
    return value;
  }

  /**
   * The two pieces of the stock {@code main} that are not public: the flag that lets the application
   * master exit its JVM when the job is done, and the shutdown hook that tells the ResourceManager
   * whether this was the last attempt. Both are used as they are, never re-implemented.
   */
  static final class StockMain {
    private StockMain() {}

    static void markStarted() throws ReflectiveOperationException {
      Field started = MRAppMaster.class.getDeclaredField("mainStarted");
      started.setAccessible(true);
      started.setBoolean(null, true);
    }

    static Runnable shutdownHook(MRAppMaster appMaster) throws ReflectiveOperationException {
      Class<?> hook = Class.forName(MRAppMaster.class.getName() + "$MRAppMasterShutdownHook");
      Constructor<?> create = hook.getDeclaredConstructor(MRAppMaster.class);
      create.setAccessible(true);
      return (Runnable) create.newInstance(appMaster);
    }
  }
}
