package org.camdoop.torus.transport.link;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Caps the accepted connections that have not completed their handshake yet, across all of a daemon's accepted
 * channels (one instance shared by them). Anyone who reaches the port may connect, and each such connection holds a
 * channel, a frame buffer (at most {@link org.camdoop.torus.transport.wire.FrameLayout#HANDSHAKE_MAX_FRAME_BYTES}) and a
 * timer until the handshake timeout: a daemon has six neighbours, so more than {@link #MAX_IN_PROGRESS} at once is not
 * a torus. One over the cap is closed at once, unanswered; a connection leaves the count when its handshake completes
 * ({@link LinkEstablished}) or it closes.
 *
 * <p>Thread-safety: the counts are atomic (accepted channels may live on several event loops); a channel's own flag is
 * touched on its event loop only.
 */
public final class HandshakeAdmission {

    private static final Logger LOG = LoggerFactory.getLogger(HandshakeAdmission.class);
    /** Accepted connections still in their handshake, at most. */
    public static final int MAX_IN_PROGRESS = 64;

    private final int max;
    private final AtomicInteger inProgress = new AtomicInteger();
    private final AtomicLong refused = new AtomicLong();

    public HandshakeAdmission() {
        this(MAX_IN_PROGRESS);
    }

    HandshakeAdmission(int max) {
        this.max = max;
    }

    /** Connections counted now (for tests). */
    int inProgress() {
        return inProgress.get();
    }

    /** A handler for one accepted channel: place it after the handshake, so that it sees the handshake's end. */
    ChannelInboundHandlerAdapter newHandler() {
        return new ChannelInboundHandlerAdapter() {
            private boolean counted;

            @Override
            public void channelActive(ChannelHandlerContext ctx) throws Exception {
                if (inProgress.incrementAndGet() > max) {
                    inProgress.decrementAndGet();
                    long n = refused.incrementAndGet();
                    if (n == 1 || n % 1000 == 0) {
                        LOG.warn("{} torus connection(s) closed unanswered: over {} handshakes in progress (the last"
                                + " from {})", n, max, ctx.channel().remoteAddress());
                    }
                    ctx.close();
                    return;
                }
                counted = true;
                super.channelActive(ctx);
            }

            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
                if (evt instanceof LinkEstablished) {
                    release();
                    ctx.pipeline().remove(this);
                }
                super.userEventTriggered(ctx, evt);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) throws Exception {
                release();
                super.channelInactive(ctx);
            }

            private void release() {
                if (counted) {
                    counted = false;
                    inProgress.decrementAndGet();
                }
            }
        };
    }
}
