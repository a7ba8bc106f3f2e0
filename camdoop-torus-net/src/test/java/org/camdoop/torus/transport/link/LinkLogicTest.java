package org.camdoop.torus.transport.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Heartbeat, backoff and token bucket logic on a hand-driven clock: no sleeping. */
class LinkLogicTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    @Test
    void heartbeatSentWhenQuietAndLinkDeclaredDownAfterTimeout() {
        HeartbeatMonitor m = new HeartbeatMonitor(now::get, 100, 350);
        assertEquals(HeartbeatMonitor.Action.NONE, m.tick());
        now.addAndGet(100);
        assertEquals(HeartbeatMonitor.Action.SEND_HEARTBEAT, m.tick());
        assertEquals(HeartbeatMonitor.Action.NONE, m.tick(), "one heartbeat per interval");
        now.addAndGet(200);
        m.frameReceived();
        now.addAndGet(349);
        m.frameSent();
        assertEquals(HeartbeatMonitor.Action.NONE, m.tick());
        now.addAndGet(1);
        assertEquals(HeartbeatMonitor.Action.DECLARE_DOWN, m.tick());
    }

    @Test
    void backoffDoublesToItsCapAndStartsAgainOnceConnected() {
        ReconnectBackoff b = new ReconnectBackoff(100, 700);
        assertEquals(100, b.nextDelayNanos());
        assertEquals(200, b.nextDelayNanos());
        assertEquals(400, b.nextDelayNanos());
        assertEquals(700, b.nextDelayNanos());
        assertEquals(700, b.nextDelayNanos());
        b.connected(now.get());
        assertEquals(100, b.nextDelayNanos());
    }

    @Test
    void aConnectionThatStoodIsRedialledAtOnceAndOneThatDroppedAtOnceBacksOff() {
        ReconnectBackoff b = new ReconnectBackoff(100, 700);
        assertEquals(100, b.afterDropNanos(now.get()), "never connected: the initial delay");
        b.connected(now.get());
        now.addAndGet(100);
        assertEquals(0, b.afterDropNanos(now.get()), "stood for the initial delay: redialled at once");
        assertEquals(100, b.nextDelayNanos(), "then backs off from the initial delay");
        assertEquals(200, b.nextDelayNanos());
        b.connected(now.get());
        now.addAndGet(99);
        assertEquals(100, b.afterDropNanos(now.get()), "dropped sooner than the initial delay: no redial at once");
        b.connected(now.get());
        now.addAndGet(1_000);
        assertEquals(0, b.afterDropNanos(now.get()));
        assertEquals(100, b.afterDropNanos(now.get()), "at once only for the first attempt after a drop");
    }

    @Test
    void tokenBucketHoldsTheLongRunRate() {
        // 1 GB/s = 1 byte per ns, burst 1000 bytes.
        TokenBucket t = new TokenBucket(now::get, 1_000_000_000L, 1000);
        assertTrue(t.mayProceed());
        t.consume(3000);
        assertFalse(t.mayProceed());
        assertEquals(2000, t.nanosUntilReady());
        now.addAndGet(1999);
        assertFalse(t.mayProceed());
        now.addAndGet(1);
        assertTrue(t.mayProceed());
        now.addAndGet(1_000_000);
        t.consume(1000);
        assertTrue(t.mayProceed(), "refill is capped at the burst, which one frame may spend");
        t.consume(1);
        assertFalse(t.mayProceed());
    }

    /** What a refused dial looks like on the in-JVM and the socket transports, against a dial that timed out. */
    @Test
    void aRefusedDialIsToldFromATimeout() throws Exception {
        io.netty.channel.EventLoopGroup nio = new io.netty.channel.MultiThreadIoEventLoopGroup(1,
                io.netty.channel.nio.NioIoHandler.newFactory());
        io.netty.channel.EventLoopGroup local = new io.netty.channel.MultiThreadIoEventLoopGroup(1,
                io.netty.channel.local.LocalIoHandler.newFactory());
        try (java.net.ServerSocket closed = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getLoopbackAddress())) {
            int port = closed.getLocalPort();
            closed.close(); // nothing listens there now
            Throwable socket = new io.netty.bootstrap.Bootstrap().group(nio)
                    .channel(io.netty.channel.socket.nio.NioSocketChannel.class)
                    .handler(new io.netty.channel.ChannelInboundHandlerAdapter())
                    .connect(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port))
                    .await().cause();
            assertTrue(Transports.refusedDial(socket), String.valueOf(socket));
            Throwable inJvm = new io.netty.bootstrap.Bootstrap().group(local)
                    .channel(io.netty.channel.local.LocalChannel.class)
                    .handler(new io.netty.channel.ChannelInboundHandlerAdapter())
                    .connect(new io.netty.channel.local.LocalAddress("nobody-listens-here")).await().cause();
            assertTrue(Transports.refusedDial(inJvm), String.valueOf(inJvm));
            assertFalse(Transports.refusedDial(new io.netty.channel.ConnectTimeoutException("connection timed out")));
            assertFalse(Transports.refusedDial(new java.net.NoRouteToHostException("No route to host")));
        } finally {
            nio.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
            local.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }
}
