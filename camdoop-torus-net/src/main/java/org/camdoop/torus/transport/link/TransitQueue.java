package org.camdoop.torus.transport.link;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.util.ArrayDeque;
import org.camdoop.torus.transport.stream.ScheduledSource;
import org.camdoop.torus.transport.wire.FrameLayout;

/**
 * Frames of one job passing through this server to another, waiting for the link towards their destination. They are
 * scheduled like the job's own streams (so job weights hold on transit links too) and need no credit here: the
 * end-to-end credit of their stream already bounds them. A peer that ignores credit meets the node's
 * {@link TransitAllowance}: frames beyond it are refused. Event-loop owned.
 */
public final class TransitQueue extends ScheduledSource {

    private final long job;
    private final TransitAllowance allowance;
    private final ArrayDeque<ByteBuf> frames = new ArrayDeque<>();

    public TransitQueue(long job, TransitAllowance allowance) {
        this.job = job;
        this.allowance = allowance;
    }

    /**
     * Takes ownership of a decoded frame (length prefix stripped).
     *
     * @return false, having released the frame, if the node's transit allowance is used up
     */
    public boolean add(ByteBuf frame) {
        if (!allowance.tryTake(frame.readableBytes())) {
            frame.release();
            return false;
        }
        frames.addLast(frame);
        return true;
    }

    public boolean isEmpty() {
        return frames.isEmpty();
    }

    @Override
    public long job() {
        return job;
    }

    @Override
    public boolean urgent() {
        return false;
    }

    @Override
    public int nextFrameBytes() {
        ByteBuf f = frames.peekFirst();
        return f == null ? 0 : f.readableBytes() + FrameLayout.LENGTH_FIELD;
    }

    @Override
    public int writeNext(Channel channel, int selfIndex) {
        ByteBuf f = frames.pollFirst();
        if (f == null) {
            return 0;
        }
        int len = f.readableBytes();
        allowance.give(len);
        channel.write(channel.alloc().ioBuffer(FrameLayout.LENGTH_FIELD).writeInt(len), channel.voidPromise());
        channel.write(f, channel.voidPromise());
        return len + FrameLayout.LENGTH_FIELD;
    }

    /** Drops everything queued (the link went down; senders resume from their last acknowledgement). */
    public int clear() {
        int n = frames.size();
        ByteBuf f;
        while ((f = frames.pollFirst()) != null) {
            allowance.give(f.readableBytes());
            f.release();
        }
        return n;
    }
}
