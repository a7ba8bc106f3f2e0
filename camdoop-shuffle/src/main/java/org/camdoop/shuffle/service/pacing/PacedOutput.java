package org.camdoop.shuffle.service.pacing;

import org.camdoop.shuffle.protocol.EndOfStream;
import org.camdoop.shuffle.service.vertex.VertexOutput;

/**
 * A vertex output that waits for its {@link SwitchPacer} tokens before offering a chunk to the real output. A chunk is
 * charged once, even when the real output then refuses it for lack of credit and the vertex offers it again. When
 * tokens are short, {@link #whenWritable} schedules the wake at the time they will be there: no thread sleeps.
 *
 * <p>Used only from the vertex's thread (as every {@link VertexOutput}); its two fields are owned by it.
 */
final class PacedOutput implements VertexOutput {

    private final VertexOutput delegate;
    private final SwitchPacer pacer;
    private final int sender;
    private final int receiver;
    /** The chunk being offered has been charged to the buckets (the real output refused it after that). */
    private boolean charged;
    /** Nanoseconds to wait for tokens after the last refusal, or 0 if the real output refused. */
    private long tokenWait;

    PacedOutput(VertexOutput delegate, SwitchPacer pacer, int sender, int receiver) {
        this.delegate = delegate;
        this.pacer = pacer;
        this.sender = sender;
        this.receiver = receiver;
    }

    @Override
    public boolean offer(byte[] chunk, int length) {
        if (!charged) {
            long wait = pacer.tryTake(sender, receiver, length);
            if (wait > 0) {
                tokenWait = wait;
                return false;
            }
            charged = true;
        }
        tokenWait = 0;
        if (!delegate.offer(chunk, length)) {
            return false;
        }
        charged = false;
        return true;
    }

    @Override
    public void whenWritable(Runnable wake) {
        if (tokenWait > 0) {
            pacer.wakeAfter(tokenWait, wake);
        } else {
            delegate.whenWritable(wake);
        }
    }

    @Override
    public boolean hasUnsent() {
        return delegate.hasUnsent();
    }

    @Override
    public void whenSent(Runnable wake) {
        delegate.whenSent(wake);
    }

    @Override
    public void end(EndOfStream end) {
        delegate.end(end);
    }

    @Override
    public void fail(String reason) {
        delegate.fail(reason);
    }
}
