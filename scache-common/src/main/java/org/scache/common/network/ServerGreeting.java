package org.scache.common.network;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.scache.common.protocol.ChannelBinding;
import org.scache.common.protocol.OutboundFrame;
import org.scache.common.protocol.ServerHello;

/** Sends a new connection's nonce ({@link ServerHello}) before anything else, then leaves the pipeline. */
final class ServerGreeting extends ChannelInboundHandlerAdapter {
  private final ChannelBinding binding;

  ServerGreeting(ChannelBinding binding) {
    this.binding = binding;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    ctx.writeAndFlush(OutboundFrame.of(0, new ServerHello(binding.nonce())));
    ctx.pipeline().remove(this);
    super.channelActive(ctx);
  }
}
