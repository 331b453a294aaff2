package org.scache.common.testing;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.network.RequestDispatcher;
import org.scache.common.protocol.BlockData;
import org.scache.common.protocol.GetBlock;
import org.scache.common.protocol.GetWorkerStats;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.ListWorkers;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.WorkerStats;

/**
 * A server handler for connection tests: answers GET_WORKER_STATS (counting whether the request was
 * signed by the sample application), answers GET_BLOCK with as many payload bytes as the block's
 * reduce id ({@link #blockBytes}), never answers LIST_WORKERS (counting the latch down), and refuses
 * everything else with INVALID_ARGUMENT.
 */
public final class EchoishHandler extends RequestDispatcher {
  private final CountDownLatch unanswered;

  public EchoishHandler(CountDownLatch unanswered) {
    this.unanswered = unanswered;
  }

  /** The payload GET_BLOCK answers for a block of reduce id {@code size}. */
  public static byte[] blockBytes(int size) {
    return SampleMessages.bytes(size, size);
  }

  /** A GET_BLOCK whose answer carries {@code size} bytes. */
  public static GetBlock getBlock(int size) {
    return new GetBlock(new BlockId("app-1", 0, 0, 0, size));
  }

  @Override
  protected void onRequest(ChannelHandlerContext ctx, InboundFrame frame) {
    Message m = frame.message();
    if (m instanceof GetWorkerStats) {
      long signed = frame.verify(SampleMessages.APP, SampleMessages.APP_SECRET) ? 1 : 0;
      reply(ctx, frame.requestId(), new WorkerStats(Map.of("signed", signed)));
    } else if (m instanceof GetBlock get) {
      int size = get.blockId().reduceId();
      ByteBuf payload = ctx.alloc().buffer(size).writeBytes(blockBytes(size));
      reply(ctx, frame.requestId(), new BlockData(get.blockId()), payload);
    } else if (m instanceof ListWorkers) {
      unanswered.countDown();
    } else {
      throw new ScacheException(Status.INVALID_ARGUMENT, "this server does not handle " + m.type());
    }
  }
}
