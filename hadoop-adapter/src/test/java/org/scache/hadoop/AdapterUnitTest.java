package org.scache.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.util.AuxiliaryServiceHelper;
import org.junit.jupiter.api.Test;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.testing.Await;

/** The adapter's pieces that need no cluster. */
class AdapterUnitTest {

  @Test
  void secretOf_shuffleTokenAsTheAmSerializesIt_returnsItsPassword() throws IOException {
    byte[] password = "job-secret".getBytes(StandardCharsets.UTF_8);
    Token<JobTokenIdentifier> token = new Token<>(new JobTokenIdentifier(new Text("job_1_0001")).getBytes(),
        password, JobTokenIdentifier.KIND_NAME, new Text("svc"));
    DataOutputBuffer out = new DataOutputBuffer();
    token.write(out);
    ByteBuffer data = ByteBuffer.wrap(out.getData(), 0, out.getLength());
    assertArrayEquals(password, ScacheAuxService.secretOf(data));
    assertArrayEquals(password, ScacheAuxService.secretOf(data), "the buffer is not consumed");
  }

  @Test
  void secretOf_emptyServiceData_fails() {
    assertThrows(IOException.class, () -> ScacheAuxService.secretOf(ByteBuffer.allocate(0)));
  }

  @Test
  void nodeWorkerAddress_roundTripsThroughTheContainerEnvironment() {
    Map<String, String> env = new java.util.HashMap<>();
    AuxiliaryServiceHelper.setServiceDataIntoEnv("scache", NodeWorkerAddress.encode("node7:41234"), env);
    assertEquals("node7:41234", NodeWorkerAddress.fromEnvironment("scache", env).orElseThrow());
    assertFalse(NodeWorkerAddress.fromEnvironment("other", env).isPresent());
  }

  @Test
  void withIdentity_randomPort_fixesPortAndIdentity() throws IOException {
    ScacheConf conf = ScacheAuxService.withIdentity(ScacheConf.empty().with(ScacheOptions.WORKER_PORT, 0)
        .with(ScacheOptions.WORKER_BIND_HOST, "127.0.0.1").with(ScacheOptions.WORKER_ADVERTISED_HOST, "127.0.0.1"));
    int port = conf.get(ScacheOptions.WORKER_PORT);
    assertTrue(port > 0);
    assertEquals("127.0.0.1:" + port, conf.get(ScacheOptions.WORKER_ID));
  }

  @Test
  void onNodeManagerHost_nodeManagerWithItsOwnAddress_workerListensAndAdvertisesThere() {
    Configuration nm = new Configuration(false);
    nm.set("yarn.nodemanager.bind-host", "127.0.0.3");
    nm.set("yarn.nodemanager.address", "127.0.0.3:0");
    ScacheConf conf = ScacheAuxService.onNodeManagerHost(ScacheConf.empty(), nm);
    assertEquals("127.0.0.3", conf.get(ScacheOptions.WORKER_BIND_HOST));
    assertEquals("127.0.0.3", conf.get(ScacheOptions.WORKER_ADVERTISED_HOST));
  }

  @Test
  void onNodeManagerHost_wildcardNodeManagerAddressOrExplicitWorkerHosts_leftAsConfigured() {
    Configuration nm = new Configuration(false);
    nm.set("yarn.nodemanager.address", "0.0.0.0:0");
    ScacheConf unset = ScacheAuxService.onNodeManagerHost(ScacheConf.empty(), nm);
    assertFalse(unset.isSet(ScacheOptions.WORKER_BIND_HOST));
    assertFalse(unset.isSet(ScacheOptions.WORKER_ADVERTISED_HOST));
    nm.set("yarn.nodemanager.bind-host", "127.0.0.3");
    nm.set("yarn.nodemanager.address", "127.0.0.3:0");
    ScacheConf explicit = ScacheAuxService.onNodeManagerHost(ScacheConf.empty()
        .with(ScacheOptions.WORKER_BIND_HOST, "127.0.0.1").with(ScacheOptions.WORKER_ADVERTISED_HOST, "127.0.0.1"), nm);
    assertEquals("127.0.0.1", explicit.get(ScacheOptions.WORKER_BIND_HOST));
    assertEquals("127.0.0.1", explicit.get(ScacheOptions.WORKER_ADVERTISED_HOST));
  }

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
    conf.set(ScacheOptions.HADOOP_SUBMIT_CHECK_TIMEOUT.key(), "500ms");
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
    assertEquals("-Xmx512m <ADD_OPENS> org.scache.hadoop.ScacheAppMaster", conf.get(MRJobConfig.MR_AM_COMMAND_OPTS));
    assertEquals(ScacheMapOutputCollector.class.getName(), conf.get(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR));
    assertEquals(ScacheShuffleConsumerPlugin.class.getName(), conf.get(MRConfig.SHUFFLE_CONSUMER_PLUGIN));
    assertEquals("scache", conf.get(MRJobConfig.MAPREDUCE_JOB_SHUFFLE_PROVIDER_SERVICES));
    assertFalse(ScacheJob.isEnabled(conf), "installing the plug points does not switch a job on");

    Configuration noAddOpens = new Configuration(false);
    noAddOpens.setBoolean(MRJobConfig.MAPREDUCE_JVM_ADD_OPENS_JAVA_OPT, false);
    ScacheJob.installPlugPoints(noAddOpens);
    assertEquals("-Xmx1024m org.scache.hadoop.ScacheAppMaster", noAddOpens.get(MRJobConfig.MR_AM_COMMAND_OPTS));
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
    am.set(ScacheOptions.HADOOP_SUBMIT_CHECK_TIMEOUT.key(), "300ms");
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

  @Test
  void serviceStart_workerPortTaken_nodeManagerGoesOnAndTheWorkerStartsOnceThePortIsFree() throws Exception {
    java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"));
    Configuration nm = new Configuration(false);
    nm.set(ScacheOptions.SECURITY_CLUSTER_SECRET.key(), "secret");
    nm.set(ScacheOptions.WORKER_MASTER_ADDRESS.key(), "127.0.0.1:1");
    nm.set(ScacheOptions.WORKER_BIND_HOST.key(), "127.0.0.1");
    nm.set(ScacheOptions.WORKER_ADVERTISED_HOST.key(), "127.0.0.1");
    nm.setInt(ScacheOptions.WORKER_PORT.key(), taken.getLocalPort());
    nm.set(ScacheOptions.WORKER_MEMORY_RESERVE.key(), "4m");
    nm.set(ScacheOptions.WORKER_MEMORY_SEGMENT.key(), "4m");
    ScacheAuxService service = new ScacheAuxService();
    try {
      service.init(nm);
      service.start();
      assertEquals(org.apache.hadoop.service.Service.STATE.STARTED, service.getServiceState());
      assertEquals(null, service.worker());
      assertTrue(service.startFailure().orElseThrow() instanceof java.net.BindException,
          service.startFailure().toString());
      assertEquals(0, service.getMetaData().remaining(), "no worker address for containers yet");

      taken.close();
      Await.until(() -> service.worker() != null, Duration.ofSeconds(20), "the worker starts on its second try");
      assertEquals("127.0.0.1:" + taken.getLocalPort(), service.worker().info().address());
      assertFalse(service.startFailure().isPresent());
      assertEquals("127.0.0.1:" + taken.getLocalPort(), NodeWorkerAddress.decode(service.getMetaData()).orElseThrow());
    } finally {
      taken.close();
      service.stop();
    }
  }

  @Test
  void runCapacity_holdsAnUncompressedIFileRunOfTheRecords() throws IOException {
    java.util.Random random = new java.util.Random(7);
    for (int records : new int[] {0, 1, 1000}) {
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      long serialized = 0;
      try (org.apache.hadoop.fs.FSDataOutputStream out = new org.apache.hadoop.fs.FSDataOutputStream(bytes, null)) {
        org.apache.hadoop.mapred.IFile.Writer<Text, Text> writer = new org.apache.hadoop.mapred.IFile.Writer<>(
            new Configuration(false), out, Text.class, Text.class, null, null);
        DataOutputBuffer serializedForm = new DataOutputBuffer();
        for (int r = 0; r < records; r++) {
          Text key = new Text(Integer.toString(random.nextInt()));
          Text value = new Text("v".repeat(random.nextInt(300)));
          serializedForm.reset();
          key.write(serializedForm);
          value.write(serializedForm);
          serialized += serializedForm.getLength();
          writer.append(key, value);
        }
        writer.close();
      }
      assertTrue(MapOutputBlock.HEADER_BYTES + bytes.size() <= ScacheMapOutputCollector.runCapacity(serialized, records),
          records + " records: " + bytes.size() + " bytes");
    }
  }
}
