package org.camdoop.torus.transport.link;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.camdoop.torus.transport.wire.FrameWriter;
import org.camdoop.torus.transport.wire.MessageType;
import org.camdoop.torus.transport.wire.RoutedFrames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps an established link honest: sends HEARTBEAT when we have been quiet for an interval, swallows the peer's,
 * and closes the channel when the peer has been silent past the timeout (the close is what declares the link down).
 * Starts on {@link LinkEstablished}. All state belongs to the channel's event loop.
 */
public final class HeartbeatHandler extends ChannelDuplexHandler {

    private static final Logger LOG = LoggerFactory.getLogger(HeartbeatHandler.class);

    private final LongSupplier nanoClock;
    private final long intervalNanos;
    private final long timeoutNanos;
    private HeartbeatMonitor monitor;
    private ScheduledFuture<?> ticker;

    public HeartbeatHandler(LongSupplier nanoClock, long intervalNanos, long timeoutNanos) {
        this.nanoClock = nanoClock;
        this.intervalNanos = intervalNanos;
        this.timeoutNanos = timeoutNanos;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof LinkEstablished && monitor == null) {
            monitor = new HeartbeatMonitor(nanoClock, intervalNanos, timeoutNanos);
            long period = Math.max(1, intervalNanos / 2);
            ticker = ctx.executor().scheduleAtFixedRate(() -> tick(ctx), period, period, TimeUnit.NANOSECONDS);
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (monitor != null) {
            monitor.frameReceived();
            ByteBuf f = (ByteBuf) msg;
            if (RoutedFrames.type(f) == MessageType.HEARTBEAT) {
                f.release();
                return;
            }
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (monitor != null) {
            monitor.frameSent();
        }
        super.write(ctx, msg, promise);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (ticker != null) {
            ticker.cancel(false);
        }
        super.channelInactive(ctx);
    }

    private void tick(ChannelHandlerContext ctx) {
        switch (monitor.tick()) {
            case SEND_HEARTBEAT -> ctx.writeAndFlush(FrameWriter.bare(ctx.alloc(), MessageType.HEARTBEAT));
            case DECLARE_DOWN -> {
                LOG.warn("no frame from {} for {} ms: declaring the link down", ctx.channel().remoteAddress(),
                        TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
                ticker.cancel(false);
                ctx.close();
            }
            case NONE -> {
            }
        }
    }
}
