package org.camdoop.torus.transport.link;

import io.netty.channel.Channel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalIoHandler;
import io.netty.channel.local.LocalServerChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/** The channel implementation a node uses: native epoll where it loads, NIO otherwise, or in-JVM local channels. */
public enum Transports {
    EPOLL, NIO, LOCAL;

    /** The best socket transport here: epoll if asked for and available, else NIO. */
    public static Transports socket(boolean preferNative) {
        return preferNative && Epoll.isAvailable() ? EPOLL : NIO;
    }

    /**
     * Whether a failed dial was refused (a reset from the peer's host: no process listens there), as against timing out
     * or finding no route, which a host that is down, a cable or a switch also causes. Every transport words it so.
     */
    public static boolean refusedDial(Throwable cause) {
        return cause instanceof java.net.ConnectException
                && !(cause instanceof io.netty.channel.ConnectTimeoutException)
                && String.valueOf(cause.getMessage()).toLowerCase(java.util.Locale.ROOT).contains("connection refused");
    }

    public IoHandlerFactory ioHandlerFactory() {
        return switch (this) {
            case EPOLL -> EpollIoHandler.newFactory();
            case NIO -> NioIoHandler.newFactory();
            case LOCAL -> LocalIoHandler.newFactory();
        };
    }

    public Class<? extends Channel> channelClass() {
        return switch (this) {
            case EPOLL -> EpollSocketChannel.class;
            case NIO -> NioSocketChannel.class;
            case LOCAL -> LocalChannel.class;
        };
    }

    public Class<? extends ServerChannel> serverChannelClass() {
        return switch (this) {
            case EPOLL -> EpollServerSocketChannel.class;
            case NIO -> NioServerSocketChannel.class;
            case LOCAL -> LocalServerChannel.class;
        };
    }
}
