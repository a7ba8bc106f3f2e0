package org.camdoop.torus.transport.link;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.util.ArrayDeque;
import org.camdoop.torus.transport.stream.ScheduledSource;
import org.camdoop.torus.transport.wire.FrameLayout;

/**
 * Frames of one job passing through this server to another, waiting for the link towards their destination. They are
 * scheduled like the job's own streams (so job weights hold on transit links too) and need no credit here: the
 * end-to-end credit of their stream already bounds them. Event-loop owned.
 */
public final class TransitQueue extends ScheduledSource {

    private final long job;
    private final ArrayDeque<ByteBuf> frames = new ArrayDeque<>();

    public TransitQueue(long job) {
        this.job = job;
    }

    /** Takes ownership of a decoded frame (length prefix stripped). */
    public void add(ByteBuf frame) {
        frames.addLast(frame);
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
        channel.write(channel.alloc().ioBuffer(FrameLayout.LENGTH_FIELD).writeInt(len), channel.voidPromise());
        channel.write(f, channel.voidPromise());
        return len + FrameLayout.LENGTH_FIELD;
    }

    /** Drops everything queued (the link went down; senders resume from their last acknowledgement). */
    public int clear() {
        int n = frames.size();
        ByteBuf f;
        while ((f = frames.pollFirst()) != null) {
            f.release();
        }
        return n;
    }
}
