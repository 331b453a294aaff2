package org.scache.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.junit.jupiter.api.Test;
import org.scache.common.config.ScacheOptions;
import org.scache.hadoop.map.ScacheMapOutputCollector;
import org.scache.hadoop.reduce.ScacheShuffleConsumerPlugin;
import org.scache.yarn.YarnOptions;

/** The adapter's pieces that need no cluster. */
class AdapterUnitTest {

  @Test
  void applicationId_ofJob_isTheYarnApplication() {
    assertEquals("application_1700000000000_0042",
        TaskScacheClient.applicationId(new JobID("1700000000000", 42)));
  }

  @Test
  void mapOutputBlock_headerRoundTrips_andRejectsForeignBytes() throws IOException {
    ByteBuffer b = ByteBuffer.allocate(MapOutputBlock.HEADER_BYTES + 3);
    new MapOutputBlock(4, 10, 3).writeHeader(b);
    b.put(new byte[] {1, 2, 3}).flip();
    MapOutputBlock h = MapOutputBlock.readHeader(b, "block");
    assertEquals(new MapOutputBlock(4, 10, 3), h);
    assertEquals(3, b.remaining(), "positioned at the IFile run");
    assertThrows(IOException.class, () -> MapOutputBlock.readHeader(ByteBuffer.allocate(40), "zeros"));
    assertEquals(1, MapOutputBlock.spillShuffle(0));
  }

  @Test
  void enable_masterUnreachable_leavesHadoopShuffle() throws IOException {
    Configuration conf = new Configuration(false);
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    conf.set(ScacheOptions.CLIENT_MASTER_ADDRESS.key(), "127.0.0.1:" + port);
    conf.set(YarnOptions.SUBMIT_CHECK_TIMEOUT.key(), "500ms");
    assertFalse(ScacheJob.enable(conf));
    assertFalse(ScacheJob.isEnabled(conf));
    assertEquals(null, conf.get(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR));
    assertEquals(null, conf.get(MRConfig.SHUFFLE_CONSUMER_PLUGIN));
  }

  @Test
  void installPlugPoints_amClassLastAfterAddOpensPlaceholder_andIdempotent() {
    Configuration conf = new Configuration(false);
    conf.set(MRJobConfig.MR_AM_COMMAND_OPTS, "-Xmx512m");
    ScacheJob.installPlugPoints(conf);
    ScacheJob.installPlugPoints(conf);
    // Hadoop 3.4's NodeManager replaces the placeholder with the JDK 17 flags; Hadoop 3.3 has none
    assertEquals("-Xmx512m " + (ScacheJob.hadoopAddsJdk17Opens() ? "<ADD_OPENS> " : "")
        + "org.scache.hadoop.appmaster.ScacheAppMaster",
        conf.get(MRJobConfig.MR_AM_COMMAND_OPTS));
    assertEquals(ScacheMapOutputCollector.class.getName(), conf.get(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR));
    assertEquals(ScacheShuffleConsumerPlugin.class.getName(), conf.get(MRConfig.SHUFFLE_CONSUMER_PLUGIN));
    assertEquals("scache", conf.get(MRJobConfig.MAPREDUCE_JOB_SHUFFLE_PROVIDER_SERVICES));
    assertFalse(ScacheJob.isEnabled(conf), "installing the plug points does not switch a job on");

    Configuration noAddOpens = new Configuration(false);
    noAddOpens.setBoolean("mapreduce.jvm.add-opens-as-default", false);
    ScacheJob.installPlugPoints(noAddOpens);
    assertEquals("-Xmx1024m org.scache.hadoop.appmaster.ScacheAppMaster",
        noAddOpens.get(MRJobConfig.MR_AM_COMMAND_OPTS));
  }

  @Test
  void shuffleChoice_applicationMastersDecisionInTheEnvironmentOverridesTheJobConf() {
    org.apache.hadoop.mapred.JobConf job = new org.apache.hadoop.mapred.JobConf(false);
    job.setBoolean("scache.enabled", true);
    assertTrue(ShuffleChoice.forTask(job, Map.of()));
    assertFalse(ShuffleChoice.forTask(job, Map.of(ShuffleChoice.ENV, "false")));
    job.setBoolean("scache.enabled", false);
    assertTrue(ShuffleChoice.forTask(job, Map.of(ShuffleChoice.ENV, "true")));
    assertFalse(ShuffleChoice.forTask(job, Map.of()));
  }

  @Test
  void decideAtJobStart_masterUnreachable_tellsEveryTaskHadoopShuffle() throws IOException {
    Configuration am = new Configuration(false);
    ScacheJob.installPlugPoints(am);
    am.setBoolean("scache.enabled", true);
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    am.set(ScacheOptions.CLIENT_MASTER_ADDRESS.key(), "127.0.0.1:" + port);
    am.set(YarnOptions.SUBMIT_CHECK_TIMEOUT.key(), "300ms");
    assertFalse(ScacheJob.decideAtJobStart(am, "application_1_0001"));
    assertEquals("false", am.get(MRJobConfig.MAP_ENV + "." + ShuffleChoice.ENV));
    assertEquals("false", am.get(MRJobConfig.REDUCE_ENV + "." + ShuffleChoice.ENV));
    assertFalse(ScacheJob.isEnabled(am));
  }

  @Test
  void addTaskJavaOpts_followsTheAdministratorsOptionsOnceAndLeavesTheJobsOwn() {
    Configuration conf = new Configuration(false);
    conf.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx320m");
    ScacheJob.addTaskJavaOpts(conf, " -XX:MetaspaceSize=64m ");
    ScacheJob.addTaskJavaOpts(conf, "-XX:MetaspaceSize=64m");
    assertEquals(MRJobConfig.DEFAULT_MAPRED_ADMIN_JAVA_OPTS.trim() + " -XX:MetaspaceSize=64m",
        conf.get(MRJobConfig.MAPRED_MAP_ADMIN_JAVA_OPTS));
    assertEquals(conf.get(MRJobConfig.MAPRED_MAP_ADMIN_JAVA_OPTS), conf.get(MRJobConfig.MAPRED_REDUCE_ADMIN_JAVA_OPTS));
    assertEquals("-Xmx320m", conf.get(MRJobConfig.MAP_JAVA_OPTS));

    Configuration custom = new Configuration(false);
    custom.set(MRJobConfig.MAPRED_MAP_ADMIN_JAVA_OPTS, "-Dsite=1");
    ScacheJob.addTaskJavaOpts(custom, "");
    assertEquals("-Dsite=1", custom.get(MRJobConfig.MAPRED_MAP_ADMIN_JAVA_OPTS));
    assertEquals(null, custom.get(MRJobConfig.MAPRED_REDUCE_ADMIN_JAVA_OPTS));
  }

  @Test
  void decideAtJobStart_switchOff_leavesTheJobAlone() {
    Configuration am = new Configuration(false);
    assertFalse(ScacheJob.decideAtJobStart(am, "application_1_0001"));
    assertEquals(null, am.get(MRJobConfig.MAP_ENV + "." + ShuffleChoice.ENV));
  }
}
