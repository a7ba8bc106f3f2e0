package org.camdoop.torus.transport;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.camdoop.torus.transport.stream.InboundHandler;
import org.camdoop.torus.transport.stream.InboundStream;

/** Test handler: records the first int of every buffer and the sequence numbers, releases at once unless held. */
final class Collector implements InboundHandler {

    final List<Integer> values = Collections.synchronizedList(new ArrayList<>());
    final List<Long> seqs = Collections.synchronizedList(new ArrayList<>());
    final List<ByteBuf> held = Collections.synchronizedList(new ArrayList<>());
    final CountDownLatch ended = new CountDownLatch(1);
    volatile String endPayload;
    volatile boolean hold;
    volatile InboundStream stream;
    /** Waiters for a number of frames received ({@link #whenReceived}), with that number. Guarded by itself. */
    private final Map<CompletableFuture<Void>, Integer> waiters = new HashMap<>();

    @Override
    public void onData(InboundStream s, long seq, ByteBuf data) {
        stream = s;
        seqs.add(seq);
        values.add(data.getInt(data.readerIndex()));
        wakeWaiters();
        if (hold) {
            held.add(data);
            return;
        }
        data.release();
        s.release(1);
    }

    @Override
    public void onEnd(InboundStream s, ByteBuf payload) {
        endPayload = payload.toString(java.nio.charset.StandardCharsets.UTF_8);
        payload.release();
        ended.countDown();
    }

    /** Completes once {@code n} frames have arrived (held or not), at once if they have. */
    CompletableFuture<Void> whenReceived(int n) {
        synchronized (waiters) {
            if (values.size() >= n) {
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<Void> f = new CompletableFuture<>();
            waiters.put(f, n);
            return f;
        }
    }

    /** Called after each frame is recorded; the check runs under the waiters' lock so none is missed. */
    private void wakeWaiters() {
        List<CompletableFuture<Void>> ready = new ArrayList<>();
        synchronized (waiters) {
            int got = values.size();
            waiters.entrySet().removeIf(e -> e.getValue() <= got && ready.add(e.getKey()));
        }
        ready.forEach(f -> f.complete(null));
    }

    /** Releases everything held and stops holding. */
    void releaseHeld() {
        hold = false;
        synchronized (held) {
            int n = held.size();
            held.forEach(ByteBuf::release);
            held.clear();
            if (n > 0) {
                stream.release(n);
            }
        }
    }
}
