package org.camdoop.shuffle.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Blocking streams over a non-blocking Unix domain {@link SocketChannel}, with a read deadline: Unix domain channels
 * have no {@code SO_TIMEOUT}, so reads wait on a selector until the deadline set by {@link #readDeadline} and then
 * throw {@link SocketTimeoutException}. Writes wait for room (the peer's reading back-pressures them), for ever or, after
 * {@link #writeStallLimit}, until the peer has read nothing for that long ({@link WriteStalledException}). One thread
 * reads and writes; {@link #close()} may come from any thread and wakes that thread.
 */
public final class DeadlineChannel implements AutoCloseable {
    private final SocketChannel channel;
    private final Selector selector;
    private final SelectionKey key;
    private final LongSupplier nanoClock;
    /** Written and read by the using thread only. */
    private long deadlineNanos;
    private boolean hasDeadline;
    /** How long a write may find no room before it fails; 0: for ever. Used by the using thread only. */
    private long writeStallNanos;

    /** A write found no room for the whole stall limit: the peer reads nothing. */
    public static final class WriteStalledException extends SocketTimeoutException {
        WriteStalledException(String message) {
            super(message);
        }
    }

    private DeadlineChannel(SocketChannel channel, Selector selector, SelectionKey key, LongSupplier nanoClock) {
        this.channel = channel;
        this.selector = selector;
        this.key = key;
        this.nanoClock = nanoClock;
    }

    /** Wraps a connected channel (made non-blocking here). */
    public static DeadlineChannel of(SocketChannel channel, LongSupplier nanoClock) throws IOException {
        channel.configureBlocking(false);
        Selector selector = Selector.open();
        try {
            return new DeadlineChannel(channel, selector, channel.register(selector, 0), nanoClock);
        } catch (IOException | RuntimeException e) {
            selector.close();
            throw e;
        }
    }

    public SocketChannel channel() {
        return channel;
    }

    /** Reads from now on fail once {@code millis} have passed. */
    public void readDeadline(long millis) {
        deadlineNanos = nanoClock.getAsLong() + TimeUnit.MILLISECONDS.toNanos(millis);
        hasDeadline = true;
    }

    /** Reads wait forever. */
    public void noReadDeadline() {
        hasDeadline = false;
    }

    /** From now on a write fails once it has found no room for {@code millis}. */
    public void writeStallLimit(long millis) {
        writeStallNanos = TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /** Writes wait for room for ever. */
    public void noWriteStallLimit() {
        writeStallNanos = 0;
    }

    /** A stream reading the channel (buffer it). */
    public InputStream input() {
        return new InputStream() {
            private final byte[] one = new byte[1];

            @Override
            public int read() throws IOException {
                int n = read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return len == 0 ? 0 : readSome(ByteBuffer.wrap(b, off, len));
            }
        };
    }

    /** A stream writing the channel (buffer it). */
    public OutputStream output() {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                writeAll(ByteBuffer.wrap(b, off, len));
            }
        };
    }

    private int readSome(ByteBuffer into) throws IOException {
        while (true) {
            int n = channel.read(into);
            if (n != 0) {
                return n;
            }
            long waitMs = 0;
            if (hasDeadline) {
                long left = deadlineNanos - nanoClock.getAsLong();
                if (left <= 0) {
                    throw new SocketTimeoutException("read deadline passed");
                }
                waitMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(left));
            }
            await(SelectionKey.OP_READ, waitMs);
        }
    }

    private void writeAll(ByteBuffer from) throws IOException {
        long since = nanoClock.getAsLong();
        while (from.hasRemaining()) {
            if (channel.write(from) > 0) {
                since = nanoClock.getAsLong();
                continue;
            }
            long waitMs = 0;
            if (writeStallNanos > 0) {
                long left = since + writeStallNanos - nanoClock.getAsLong();
                if (left <= 0) {
                    throw new WriteStalledException("the peer read nothing for "
                            + TimeUnit.NANOSECONDS.toMillis(writeStallNanos) + " ms");
                }
                waitMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(left));
            }
            await(SelectionKey.OP_WRITE, waitMs);
        }
    }

    private void await(int op, long millis) throws IOException {
        try {
            key.interestOps(op);
            selector.select(millis);
            selector.selectedKeys().clear();
        } catch (java.nio.channels.CancelledKeyException | java.nio.channels.ClosedSelectorException e) {
            throw new java.nio.channels.ClosedChannelException();
        }
        if (!channel.isOpen()) {
            throw new java.nio.channels.ClosedChannelException();
        }
    }

    @Override
    public void close() throws IOException {
        try {
            channel.close();
        } finally {
            selector.close();
        }
    }
}
