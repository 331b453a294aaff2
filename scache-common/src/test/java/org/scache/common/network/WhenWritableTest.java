package org.scache.common.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Large writes wait for the connection to be writable, are made in order, and are dropped when it closes. */
class WhenWritableTest {
  /** A connection's last handler, as a role's would be: it forwards writability and closing. */
  private static final class Role extends ChannelInboundHandlerAdapter {
    final WhenWritable writes = new WhenWritable();
    ChannelHandlerContext ctx;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      this.ctx = ctx;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      writes.writabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      writes.closed();
    }
  }

  @Test
  void writesPastTheHighWaterMark_wait_andAreMadeInOrderAsTheQueueDrains() {
    Role role = new Role();
    EmbeddedChannel channel = new EmbeddedChannel(role);
    channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8, 16));
    List<Integer> made = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      int n = i;
      role.writes.submit(role.ctx, ctx -> {
        made.add(n);
        ctx.write(Unpooled.wrappedBuffer(new byte[32]));
      });
    }
    assertEquals(List.of(0), made, "the first is made; it takes the connection past its high water mark");
    assertFalse(channel.isWritable());
    assertEquals(2, role.writes.waiting());

    channel.flushOutbound();
    channel.runPendingTasks();
    assertEquals(List.of(0, 1), made, "the next once the first has gone out");
    channel.flushOutbound();
    channel.runPendingTasks();
    assertEquals(List.of(0, 1, 2), made);
    assertEquals(0, role.writes.waiting());
    channel.flushOutbound();
    channel.runPendingTasks();
    assertTrue(channel.isWritable());
    for (ByteBuf b; (b = channel.readOutbound()) != null; ) {
      b.release();
    }
    assertFalse(channel.finish());
  }

  @Test
  void writesThatWaitWhenTheConnectionCloses_areDropped_andLaterOnesTooAtOnce() {
    Role role = new Role();
    EmbeddedChannel channel = new EmbeddedChannel(role);
    channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8, 16));
    List<String> dropped = new ArrayList<>();
    role.writes.submit(role.ctx, ctx -> ctx.write(Unpooled.wrappedBuffer(new byte[32])));
    role.writes.submit(role.ctx, neverMade(dropped, "waiting"));
    channel.close();
    role.writes.submit(role.ctx, neverMade(dropped, "late"));
    assertEquals(List.of("waiting", "late"), dropped);
    channel.finishAndReleaseAll();
  }

  /** A write that must not be made: its drop is recorded in {@code dropped} as {@code name}. */
  private static WhenWritable.PendingWrite neverMade(List<String> dropped, String name) {
    return new WhenWritable.PendingWrite() {
      @Override
      public void write(ChannelHandlerContext ctx) {
        throw new AssertionError("never made");
      }

      @Override
      public void drop() {
        dropped.add(name);
      }
    };
  }
}
