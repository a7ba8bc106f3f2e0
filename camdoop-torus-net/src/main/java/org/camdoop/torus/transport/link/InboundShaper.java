package org.camdoop.torus.transport.link;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.TimeUnit;

/**
 * Shapes the receive direction of a link to the bucket's rate by pausing reads while the bucket is in debt; TCP
 * back-pressure then slows the sender. First handler of the pipeline when shaping is on. Event-loop owned.
 */
public final class InboundShaper extends ChannelInboundHandlerAdapter {

    private final TokenBucket bucket;
    private boolean paused;

    public InboundShaper(TokenBucket bucket) {
        this.bucket = bucket;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof ByteBuf b) {
            bucket.consume(b.readableBytes());
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        long wait = bucket.nanosUntilReady();
        if (wait > 0 && !paused) {
            paused = true;
            ctx.channel().config().setAutoRead(false);
            ctx.executor().schedule(() -> {
                paused = false;
                ctx.channel().config().setAutoRead(true);
            }, wait, TimeUnit.NANOSECONDS);
        }
        super.channelReadComplete(ctx);
    }
}
