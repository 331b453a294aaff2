package org.scache.common.network;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.WriteBufferWaterMark;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.Ack;
import org.scache.common.protocol.GetWorkerStats;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.testing.NettyLeakExtension;

/** The configured write-buffer water marks are those of a server's and a client's channels. */
@ExtendWith(NettyLeakExtension.class)
@Timeout(60)
class WriteWaterMarksTest {
  @Test
  void serverAndClientChannels_turnUnwritableAtTheConfiguredWaterMarks() throws Exception {
    TransportSettings settings = TransportSettings.from(ScacheConf.empty()
        .with(ScacheOptions.NETWORK_WRITE_BUFFER_LOW.key(), "100k")
        .with(ScacheOptions.NETWORK_WRITE_BUFFER_HIGH.key(), "300k"));
    CompletableFuture<WriteBufferWaterMark> onServer = new CompletableFuture<>();
    try (ScacheServer server = ScacheServer.start("test-server", "127.0.0.1", 0, settings,
        () -> new RequestDispatcher() {
          @Override
          protected void onRequest(ChannelHandlerContext ctx, InboundFrame frame) {
            onServer.complete(ctx.channel().config().getWriteBufferWaterMark());
            reply(ctx, frame.requestId(), new Ack());
          }
        });
        ConnectionPool pool = new ConnectionPool(settings, "test-client")) {
      ScacheConnection connection = pool.get("127.0.0.1", server.port()).get(10, SECONDS);
      connection.call(new GetWorkerStats(), Optional.empty(), Duration.ofSeconds(10)).get(10, SECONDS).release();
      WriteBufferWaterMark expected = new WriteBufferWaterMark(100 << 10, 300 << 10);
      assertEquals(expected.toString(), onServer.get(10, SECONDS).toString());
      assertEquals(expected.toString(), connection.channel().config().getWriteBufferWaterMark().toString());
    }
  }

  @Test
  void aLowWaterMarkAboveTheHighOne_isRefused() {
    assertThrows(IllegalArgumentException.class, () -> TransportSettings.from(ScacheConf.empty()
        .with(ScacheOptions.NETWORK_WRITE_BUFFER_LOW.key(), "2m")
        .with(ScacheOptions.NETWORK_WRITE_BUFFER_HIGH.key(), "1m")));
  }
}
