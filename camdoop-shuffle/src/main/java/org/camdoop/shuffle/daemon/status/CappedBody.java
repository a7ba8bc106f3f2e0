package org.camdoop.shuffle.daemon.status;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * An HTTP body read into memory only up to {@code cap} bytes: whatever answers at a peer's address may send an endless
 * body, so the subscriber asks for one buffer at a time and, once the bytes would pass the cap, cancels the
 * subscription (the client then closes the connection) and fails with {@link TooLong}. {@link #abandon} stops it the
 * same way when the caller's deadline passes: a body trickled byte by byte would otherwise hold its connection open.
 *
 * <p>Thread-safety: the client signals {@code onSubscribe}, {@code onNext}, {@code onError} and {@code onComplete}
 * one at a time; {@link #abandon} may come from any thread, and a subscription's {@code cancel} is thread-safe.
 */
final class CappedBody implements HttpResponse.BodySubscriber<byte[]> {

    /** The body passed the cap: nothing more was read. */
    static final class TooLong extends IOException {
        TooLong(int cap) {
            super("answer longer than " + cap + " bytes");
        }
    }

    private final int cap;
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private volatile Flow.Subscription subscription;

    CappedBody(int cap) {
        this.cap = cap;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (result.isDone()) {
            s.cancel(); // abandoned before the body began
        } else {
            s.request(1);
        }
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        if (result.isDone()) {
            subscription.cancel();
            return;
        }
        for (ByteBuffer b : buffers) {
            if (bytes.size() + (long) b.remaining() > cap) {
                subscription.cancel();
                result.completeExceptionally(new TooLong(cap));
                return;
            }
            byte[] chunk = new byte[b.remaining()];
            b.get(chunk);
            bytes.write(chunk, 0, chunk.length);
        }
        subscription.request(1);
    }

    @Override
    public void onError(Throwable t) {
        result.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
        result.complete(bytes.toByteArray());
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }

    /** Stops reading (the deadline passed): cancels the subscription if the body has begun. */
    void abandon(IOException why) {
        result.completeExceptionally(why);
        Flow.Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
    }
}
