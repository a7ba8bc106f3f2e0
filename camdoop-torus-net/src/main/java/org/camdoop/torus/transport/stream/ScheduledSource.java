package org.camdoop.torus.transport.stream;

import io.netty.channel.Channel;

/**
 * Something a link can send frames from: an outbound stream or a queue of frames in transit. The scheduler fields
 * below belong to the event loop that owns the link.
 */
public abstract class ScheduledSource {

    /** Event loop only: whether this source sits in a scheduler queue now. */
    boolean queued;

    /** The job the frames belong to: the unit of weighted sharing. */
    public abstract long job();

    /** Whether a receiver asked for this source to be served first. */
    public abstract boolean urgent();

    /** Bytes of the next frame that may go out now, or 0 when nothing may (empty, or no credit). */
    public abstract int nextFrameBytes();

    /**
     * Writes the next frame to {@code channel} without flushing.
     *
     * @return bytes written, 0 if nothing was sendable after all
     */
    public abstract int writeNext(Channel channel, int selfIndex);
}
