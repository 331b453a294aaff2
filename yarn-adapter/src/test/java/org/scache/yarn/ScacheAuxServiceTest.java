package org.scache.yarn;

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
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.util.AuxiliaryServiceHelper;
import org.junit.jupiter.api.Test;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.testing.Await;

class ScacheAuxServiceTest {
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
}
