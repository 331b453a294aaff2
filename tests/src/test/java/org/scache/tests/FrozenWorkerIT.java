package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.Status;
import org.scache.common.testing.FrameCodecHarness;

/** A worker that greets and then never answers: the client's error says how long it tried, and how often. */
@Timeout(60)
class FrozenWorkerIT {

  @Test
  void callsToAFrozenWorker_failWithAMessageThatCountsEveryTry() throws Exception {
    List<Socket> accepted = new ArrayList<>();
    try (ServerSocket frozen = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread t = new Thread(() -> {
        byte[] hello = FrameCodecHarness.encode(org.scache.common.protocol.OutboundFrame.of(0,
            new org.scache.common.protocol.ServerHello(FrameCodecHarness.NONCE)));
        while (true) {
          try {
            Socket s = frozen.accept();
            accepted.add(s);
            OutputStream out = s.getOutputStream();
            out.write(hello);
            out.flush();
            InputStream in = s.getInputStream();
            new Thread(() -> {
              try {
                in.transferTo(OutputStream.nullOutputStream());
              } catch (IOException e) {
                // closed
              }
            }).start();
          } catch (IOException e) {
            return;
          }
        }
      });
      t.setDaemon(true);
      t.start();
      ScacheConf conf = ScacheConf.empty()
          .with(ScacheOptions.CLIENT_MASTER_ADDRESS, "127.0.0.1:" + frozen.getLocalPort())
          .with(ScacheOptions.CLIENT_WORKER_ADDRESS, "127.0.0.1:" + frozen.getLocalPort())
          .with(ScacheOptions.CLIENT_LOCAL_SHM_ENABLED, false)
          .with(ScacheOptions.CLIENT_REQUEST_TIMEOUT.key(), "300ms")
          .with(ScacheOptions.CLIENT_RETRY_BACKOFF.key(), "10ms");
      try (ScacheClient client = ScacheClient.create(conf, "app-frozen", "s".getBytes(StandardCharsets.UTF_8))) {
        long start = System.nanoTime();
        ScacheException e = assertThrows(ScacheException.class,
            () -> client.getBlock(new BlockId("app-frozen", 0, 0, 0, 0)));
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(Status.TIMEOUT, e.status(), e.getMessage());
        assertTrue(e.getMessage().contains("after 3 tries"), e.getMessage());
        assertTrue(tookMillis >= 900, "three tries of 300 ms: " + tookMillis + " ms");
      }
    } finally {
      for (Socket s : accepted) {
        s.close();
      }
    }
  }
}
