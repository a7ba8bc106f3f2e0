package org.camdoop.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.camdoop.torus.transport.link.Transports;

/**
 * The baseline: one Netty connection on loopback with no protocol at all, the sender writing the same segment size as
 * a Camdoop link while the channel is writable, the receiver counting and discarding. Same transport, same number of
 * event loops (one per side) as a pair of daemons.
 */
final class RawNettyPipe implements AutoCloseable {

    private final EventLoopGroup serverGroup;
    private final EventLoopGroup clientGroup;
    private final AtomicLong received = new AtomicLong();
    private final Channel server;
    private final Channel client;
    private final ByteBuf segment;
    private volatile boolean closing;

    RawNettyPipe(Transports kind, int segmentBytes, int highWaterMark) throws InterruptedException {
        serverGroup = new MultiThreadIoEventLoopGroup(1, kind.ioHandlerFactory());
        clientGroup = new MultiThreadIoEventLoopGroup(1, kind.ioHandlerFactory());
        server = new ServerBootstrap().group(serverGroup, serverGroup).channel(kind.serverChannelClass())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ByteBuf b = (ByteBuf) msg;
                                received.addAndGet(b.readableBytes());
                                b.release();
                            }
                        });
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        segment = io.netty.buffer.PooledByteBufAllocator.DEFAULT.directBuffer(segmentBytes).writeZero(segmentBytes);
        client = new Bootstrap().group(clientGroup).channel(kind.channelClass())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(highWaterMark / 2, highWaterMark))
                .handler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        pump(ctx.channel());
                    }

                    @Override
                    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
                        pump(ctx.channel());
                    }

                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        // Writes racing the close at the end of the run fail; nothing to report.
                        ctx.close();
                    }
                }).connect(server.localAddress()).sync().channel();
    }

    private void pump(Channel ch) {
        while (ch.isActive() && ch.isWritable() && !closing) {
            ch.write(segment.retainedDuplicate(), ch.voidPromise());
        }
        ch.flush();
    }

    long receivedBytes() {
        return received.get();
    }

    @Override
    public void close() {
        closing = true;
        client.close().syncUninterruptibly();
        server.close().syncUninterruptibly();
        clientGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        serverGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        segment.release();
    }
}
