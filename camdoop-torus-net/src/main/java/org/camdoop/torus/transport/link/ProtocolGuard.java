package org.camdoop.torus.transport.link;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.camdoop.torus.transport.wire.ErrorCode;
import org.camdoop.torus.transport.wire.FrameWriter;
import org.camdoop.torus.transport.wire.ProtocolException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Last handler of every link pipeline: turns a protocol failure into an ERROR frame to the peer, a log line and the
 * close of this connection only. Nothing escapes it.
 */
public final class ProtocolGuard extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ProtocolGuard.class);

    /**
     * Failures no handler expected (a defect, not a peer's fault), in this JVM: each closed a connection. Tests that
     * drive many faults assert it stays put.
     */
    private static final AtomicLong UNEXPECTED = new AtomicLong();

    /** Event loop only. */
    private boolean closing;

    /** How many connections in this JVM were closed for a failure no handler expected (see {@link #UNEXPECTED}). */
    public static long unexpectedFailures() {
        return UNEXPECTED.get();
    }

    /** Sends ERROR({@code code}, {@code text}) and closes; used by the handshake for refusals too. */
    public static void refuse(ChannelHandlerContext ctx, ErrorCode code, String text) {
        LOG.warn("closing connection {}: {}: {}", ctx.channel().remoteAddress(), code, text);
        if (ctx.channel().isActive()) {
            ctx.writeAndFlush(FrameWriter.error(ctx.alloc(), code, text)).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.close();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (closing) {
            return;
        }
        closing = true;
        Throwable c = cause instanceof DecoderException && cause.getCause() != null
                && !(cause instanceof ProtocolException) ? cause.getCause() : cause;
        if (c instanceof javax.net.ssl.SSLException || cause instanceof javax.net.ssl.SSLException) {
            // No ERROR frame: there is no TLS session to carry it. The peer sees the TLS alert.
            LOG.warn("closing connection {}: TLS failed: {}", ctx.channel().remoteAddress(), c.getMessage());
            ctx.close();
        } else if (cause instanceof ProtocolException p) {
            refuse(ctx, p.code(), p.getMessage());
        } else if (c instanceof TooLongFrameException || cause instanceof TooLongFrameException) {
            refuse(ctx, ErrorCode.FRAME_TOO_LARGE, cause.getMessage());
        } else if (c instanceof CorruptedFrameException || cause instanceof DecoderException) {
            refuse(ctx, ErrorCode.MALFORMED_FRAME, String.valueOf(cause.getMessage()));
        } else if (c instanceof IOException) {
            LOG.debug("connection {} failed: {}", ctx.channel().remoteAddress(), c.toString());
            ctx.close();
        } else {
            UNEXPECTED.incrementAndGet();
            LOG.error("unexpected failure on connection {}; closing it", ctx.channel().remoteAddress(), cause);
            ctx.close();
        }
    }
}
