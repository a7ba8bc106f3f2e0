package org.camdoop.torus.transport.link;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.camdoop.torus.transport.wire.ErrorCode;
import org.camdoop.torus.transport.wire.Message;
import org.camdoop.torus.transport.wire.MessageType;
import org.camdoop.torus.transport.wire.Messages;
import org.camdoop.torus.transport.wire.ProtocolException;
import org.camdoop.torus.transport.wire.RoutedFrames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the frames of an established link to the node ({@link LinkEvents}) and reports writability and closing.
 * Event-loop owned.
 */
public final class LinkHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(LinkHandler.class);

    private final LinkEvents events;
    /** Event loop only, as is {@code peerShutDown}. */
    private int peer = -1;
    /** The peer announced an orderly shutdown (ERROR SHUTTING_DOWN) before closing. */
    private boolean peerShutDown;

    public LinkHandler(LinkEvents events) {
        this.events = events;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof LinkEstablished e) {
            peer = e.peer();
            events.established(ctx.channel(), peer, e.peerIncarnation());
        } else if (evt instanceof LinkRefused r) {
            events.refused(ctx.channel(), r.reason());
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf f = (ByteBuf) msg;
        MessageType type = RoutedFrames.type(f);
        if (peer >= 0 && type.routed()) {
            events.routedFrame(peer, f);
            return;
        }
        try {
            if (type == MessageType.ERROR) {
                Message.Error e = (Message.Error) Messages.decode(f);
                if (e.code() == ErrorCode.SHUTTING_DOWN) {
                    peerShutDown = true;
                    LOG.info("peer {} is shutting down: {}", ctx.channel().remoteAddress(), e.text());
                } else {
                    LOG.warn("peer {} closed the link: {}: {}", ctx.channel().remoteAddress(), e.code(), e.text());
                }
                ctx.close();
                return;
            }
            throw new ProtocolException(ErrorCode.PROTOCOL_VIOLATION, type + " frame on an established link");
        } finally {
            f.release();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (peer >= 0 && ctx.channel().isWritable()) {
            events.writable(ctx.channel(), peer);
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (peer >= 0) {
            events.closed(ctx.channel(), peer,
                    peerShutDown ? Link.REASON_PEER_SHUT_DOWN : Link.REASON_CONNECTION_CLOSED);
        }
        super.channelInactive(ctx);
    }
}
