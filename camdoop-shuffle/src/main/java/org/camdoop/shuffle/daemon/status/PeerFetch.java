package org.camdoop.shuffle.daemon.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.camdoop.torus.topology.Coord;

/**
 * One peer's {@code /status.json}, asked for at once and awaited until a deadline shared by the whole fan-out. The
 * client's request timeout covers only the response headers, so the body is read by a {@link CappedBody} that stops
 * at the byte cap, and at the deadline the exchange is cancelled and the body abandoned: whatever answers at the
 * peer's address can neither fill the heap nor hold the status thread. Not thread-safe: one fan-out owns it.
 */
final class PeerFetch {

    /** What the peer answered: its status re-written as JSON, or why it counts as unreachable. */
    record Answer(String json, String whyNot) {
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Coord peer;
    private final Duration deadline;
    private final CompletableFuture<HttpResponse<byte[]>> response;
    private final Object lock = new Object();
    /** Guarded by {@link #lock}: the handler may make the body after the deadline passed. */
    private CappedBody body;
    private boolean abandoned;

    /** Sends the request now; {@code deadline} also bounds the connection and the response headers. */
    PeerFetch(HttpClient client, URI uri, Coord peer, int cap, Duration deadline) {
        this.peer = peer;
        this.deadline = deadline;
        this.response = client.sendAsync(HttpRequest.newBuilder(uri).timeout(deadline).GET().build(), info -> {
            CappedBody b = new CappedBody(cap);
            synchronized (lock) {
                body = b;
                if (abandoned) {
                    b.abandon(late());
                }
            }
            return b;
        });
    }

    /** Waits for the answer until {@code deadlineNanos} ({@link System#nanoTime}); abandons it after. */
    Answer await(long deadlineNanos) {
        try {
            HttpResponse<byte[]> r = response.get(Math.max(0, deadlineNanos - System.nanoTime()),
                    TimeUnit.NANOSECONDS);
            return check(r);
        } catch (TimeoutException e) {
            abandon();
            return new Answer(null, late().getMessage());
        } catch (ExecutionException e) {
            return new Answer(null, why(e.getCause()));
        } catch (InterruptedException e) {
            abandon();
            Thread.currentThread().interrupt();
            return new Answer(null, "not awaited: the status thread was interrupted");
        }
    }

    private Answer check(HttpResponse<byte[]> r) {
        if (r.statusCode() != 200) {
            return new Answer(null, "answered HTTP status " + r.statusCode());
        }
        try {
            // Parsed and written anew: whatever answers at a peer's address cannot inject into the page.
            JsonNode n = MAPPER.readTree(r.body());
            if (n == null || !n.isObject()) {
                return new Answer(null, "its answer is not a JSON object");
            }
            if (!DaemonSnapshot.format(peer).equals(n.path("coord").asText())) {
                return new Answer(null, "its answer is the status of another coordinate");
            }
            return new Answer(MAPPER.writeValueAsString(n), null);
        } catch (IOException e) {
            return new Answer(null, "its answer is not a JSON object");
        }
    }

    private void abandon() {
        response.cancel(true);
        synchronized (lock) {
            abandoned = true;
            if (body != null) {
                body.abandon(late());
            }
        }
    }

    private HttpTimeoutException late() {
        return new HttpTimeoutException("no complete answer within " + deadline.toMillis() + " ms");
    }

    /** The reason of a failed exchange, found along its causes (the client wraps some, with no message). */
    private String why(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof CappedBody.TooLong) {
                return c.getMessage();
            }
            if (c instanceof HttpTimeoutException) {
                return late().getMessage();
            }
        }
        String first = null;
        boolean connect = false;
        for (Throwable c = t; c != null; c = c.getCause()) {
            first = first == null ? c.getMessage() : first;
            connect |= c instanceof java.net.ConnectException;
        }
        // The client's ConnectException of a refused connection carries no message.
        return "no answer: " + (first != null ? first : connect ? "cannot connect" : t.getClass().getName());
    }
}
