package org.scache.hadoop;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.scache.client.MasterCheck;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.ha.Locator;
import org.scache.hadoop.appmaster.ScacheAppMaster;
import org.scache.hadoop.map.ScacheMapOutputCollector;
import org.scache.hadoop.reduce.ScacheShuffleConsumerPlugin;
import org.scache.yarn.HadoopScacheConf;
import org.scache.yarn.YarnOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job switch. A job author sets {@code scache.enabled=true} in the job configuration (on a cluster
 * whose mapred-site.xml installs the SCache plug points, see {@link #installPlugPoints}), or calls
 * {@link #enable}, which installs them in the job itself. Either way the job's shuffle goes through
 * SCache only when the SCache master answers and has a live worker; otherwise the job is left on
 * Hadoop's own shuffle and one warning says why. A job never fails because SCache is down, and the
 * choice is made once per job (see {@link ShuffleChoice}).
 */
public final class ScacheJob {
  private static final Logger LOG = LoggerFactory.getLogger(ScacheJob.class);
  /**
   * The NodeManager's placeholder for the JDK 17 flags ({@code ApplicationConstants.JVM_ADD_OPENS_VAR},
   * {@code <ADD_OPENS>}), read at run time: Hadoop 3.3 has no such placeholder, and a copy of it compiled in would
   * reach its shell as a redirection.
   */
  private static final Optional<String> ADD_OPENS_PLACEHOLDER = addOpensPlaceholder();
  /** {@code MRJobConfig.MAPREDUCE_JVM_ADD_OPENS_JAVA_OPT}, which Hadoop 3.3 has not either (default true). */
  private static final String ADD_OPENS_KEY = "mapreduce.jvm.add-opens-as-default";

  private ScacheJob() {}

  /**
   * Checks at submission that SCache can serve the job, then sets {@code scache.enabled=true} and
   * installs the plug points ({@link #installPlugPoints}) in the job's configuration. Returns false,
   * with {@code scache.enabled=false} and the job otherwise unchanged, when SCache is unreachable.
   */
  public static boolean enable(Configuration conf) {
    ScacheConf scache = HadoopScacheConf.from(conf);
    Optional<String> problem = MasterCheck.run(scache, scache.get(YarnOptions.SUBMIT_CHECK_TIMEOUT)).problem();
    if (problem.isPresent()) {
      conf.setBoolean(MapReduceOptions.ENABLED.key(), false);
      LOG.warn("SCache is not usable ({}); this job runs on Hadoop's own shuffle", problem.get());
      return false;
    }
    conf.setBoolean(MapReduceOptions.ENABLED.key(), true);
    installPlugPoints(conf);
    return true;
  }

  /**
   * Installs what a job needs to be able to shuffle through SCache, without switching it on: the map
   * output collector and the reduce shuffle consumer (both run Hadoop's own shuffle unless the job's
   * decision is SCache), the auxiliary service as a shuffle provider (so the NodeManagers hand it the
   * job's token), and {@link ScacheAppMaster} as the application master. An operator puts the same
   * entries in mapred-site.xml (docs/deploy-yarn.md) so that {@code scache.enabled} alone switches a job.
   */
  public static void installPlugPoints(Configuration conf) {
    conf.set(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, ScacheMapOutputCollector.class.getName());
    conf.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, ScacheShuffleConsumerPlugin.class.getName());
    addShuffleProvider(conf, HadoopScacheConf.from(conf).get(YarnOptions.AUX_SERVICE_NAME));
    String amOpts = conf.get(MRJobConfig.MR_AM_COMMAND_OPTS, MRJobConfig.DEFAULT_MR_AM_COMMAND_OPTS).trim();
    if (!amOpts.endsWith(ScacheAppMaster.class.getName())) {
      conf.set(MRJobConfig.MR_AM_COMMAND_OPTS, amOpts + " " + appMasterLaunch(conf));
    }
  }

  /**
   * What ends {@code yarn.app.mapreduce.am.command-opts} to start {@link ScacheAppMaster}: its class
   * name, preceded by the NodeManager's {@code <ADD_OPENS>} placeholder when Hadoop adds the JDK 17
   * flags. YARN appends that placeholder after the command options, where it would follow the class
   * name and reach the JVM as program arguments; the NodeManager replaces every occurrence, so the
   * copy before the class name gives the JVM its flags (or nothing on older JDKs).
   */
  static String appMasterLaunch(Configuration conf) {
    boolean addOpens = ADD_OPENS_PLACEHOLDER.isPresent() && conf.getBoolean(ADD_OPENS_KEY, true);
    return (addOpens ? ADD_OPENS_PLACEHOLDER.get() + " " : "") + ScacheAppMaster.class.getName();
  }

  /**
   * Whether this Hadoop adds the JDK 17 flags to its containers' command lines itself (3.4 does; on 3.3 a job on
   * JDK 17 names them in its own JVM options).
   */
  public static boolean hadoopAddsJdk17Opens() {
    return ADD_OPENS_PLACEHOLDER.isPresent();
  }

  private static Optional<String> addOpensPlaceholder() {
    try {
      return Optional.of((String) ApplicationConstants.class.getField("JVM_ADD_OPENS_VAR").get(null));
    } catch (ReflectiveOperationException | ClassCastException e) {
      return Optional.empty();
    }
  }

  /** Whether this job configuration has the switch on. */
  public static boolean isEnabled(Configuration conf) {
    return conf.getBoolean(MapReduceOptions.ENABLED.key(), false);
  }

  /**
   * The application master's decision for the job whose configuration is {@code amConf}, made once at
   * job start and handed to every task: SCache when the switch is on and the master answers (then
   * also no map speculation: two attempts of one map would race to be final, the reduce slow start of
   * {@code scache.hadoop.reduce.slowstart}, no reduce ramp-up while maps wait for containers, and the task JVM
   * options of {@code scache.hadoop.task.java.opts}), Hadoop's shuffle
   * otherwise, with one warning. Returns the decision.
   */
  public static boolean decideAtJobStart(Configuration amConf, String applicationId) {
    if (!isEnabled(amConf)) {
      return false;
    }
    ScacheConf scache = HadoopScacheConf.from(amConf);
    // the job's one shuffle puts a block per map and reduce: one the cluster cannot hold runs on Hadoop's
    Optional<String> problem = MasterCheck.run(scache, scache.get(YarnOptions.SUBMIT_CHECK_TIMEOUT),
        amConf.getInt(MRJobConfig.NUM_MAPS, 0), amConf.getInt(MRJobConfig.NUM_REDUCES, 1)).problem();
    if (problem.isPresent()) {
      LOG.warn("SCache is not usable ({}); job {} runs on Hadoop's own shuffle", problem.get(), applicationId);
      ShuffleChoice.passToTasks(amConf, false);
      return false;
    }
    String collector = amConf.get(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, "");
    String consumer = amConf.get(MRConfig.SHUFFLE_CONSUMER_PLUGIN, "");
    if (!collector.equals(ScacheMapOutputCollector.class.getName())
        || !consumer.equals(ScacheShuffleConsumerPlugin.class.getName())) {
      LOG.warn("scache.enabled is set but the job's tasks do not load SCache's plug points ({}={}, {}={}); job {} "
          + "runs on Hadoop's own shuffle. Install them in mapred-site.xml (docs/deploy-yarn.md) or submit with "
          + "ScacheJob.enable", MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, collector,
          MRConfig.SHUFFLE_CONSUMER_PLUGIN,
          consumer, applicationId);
      ShuffleChoice.passToTasks(amConf, false);
      return false;
    }
    addShuffleProvider(amConf, scache.get(YarnOptions.AUX_SERVICE_NAME));
    amConf.setBoolean(MRJobConfig.MAP_SPECULATIVE, false);
    amConf.setFloat(MRJobConfig.COMPLETED_MAPS_FOR_REDUCE_SLOWSTART,
        scache.get(MapReduceOptions.REDUCE_SLOWSTART).floatValue());
    // a reduce never takes a container a pending map needs: the maps are not slowed down by reduces that
    // would only wait for them
    amConf.setFloat(MRJobConfig.MR_AM_JOB_REDUCE_RAMPUP_UP_LIMIT, 0f);
    addTaskJavaOpts(amConf, scache.get(MapReduceOptions.TASK_JAVA_OPTS));
    ShuffleChoice.passToTasks(amConf, true);
    LOG.info("job {} shuffles through SCache (master {})", applicationId,
        Locator.describeMaster(scache, ScacheOptions.CLIENT_MASTER_ADDRESS));
    return true;
  }

  /**
   * Appends {@code opts} to the administrator's JVM options of the job's map and reduce containers, which
   * come before the job's own java opts (so those still win); nothing when they are empty or already there.
   */
  static void addTaskJavaOpts(Configuration conf, String opts) {
    String added = opts.trim();
    if (added.isEmpty()) {
      return;
    }
    for (String key : new String[] {MRJobConfig.MAPRED_MAP_ADMIN_JAVA_OPTS,
        MRJobConfig.MAPRED_REDUCE_ADMIN_JAVA_OPTS}) {
      String admin = conf.get(key, MRJobConfig.DEFAULT_MAPRED_ADMIN_JAVA_OPTS).trim();
      if (!(" " + admin + " ").contains(" " + added + " ")) {
        conf.set(key, admin.isEmpty() ? added : admin + " " + added);
      }
    }
  }

  private static void addShuffleProvider(Configuration conf, String service) {
    List<String> providers = new ArrayList<>(conf.getTrimmedStringCollection(
        MRJobConfig.MAPREDUCE_JOB_SHUFFLE_PROVIDER_SERVICES));
    if (!providers.contains(service)) {
      providers.add(service);
    }
    conf.setStrings(MRJobConfig.MAPREDUCE_JOB_SHUFFLE_PROVIDER_SERVICES, providers.toArray(String[]::new));
  }

}
