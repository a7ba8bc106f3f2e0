package org.camdoop.shuffle.daemon.status;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whatever may answer at a peer's status address, on a raw socket: it reads one request's headers, sends 200 headers
 * of a body without a length, then writes the body {@link Body} makes until the client closes the connection. It
 * counts the body bytes it managed to write, so a test sees how much the client read at most, and that it hung up.
 */
final class RawHttpPeer implements AutoCloseable {

    /** Writes a body for ever: returns only by an IOException (the client closed the connection). */
    @FunctionalInterface
    interface Body {
        void write(OutputStream out, AtomicLong written) throws IOException, InterruptedException;
    }

    private final ServerSocket server;
    private final AtomicLong written = new AtomicLong();
    private final CountDownLatch hungUp = new CountDownLatch(1);
    private final Thread thread;

    RawHttpPeer(InetSocketAddress address, Body body) throws IOException {
        server = new ServerSocket();
        server.bind(address);
        thread = new Thread(() -> serve(body), "raw-http-peer-" + address);
        thread.setDaemon(true);
        thread.start();
    }

    private void serve(Body body) {
        try (Socket s = server.accept()) {
            readHeaders(s.getInputStream());
            OutputStream out = s.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            body.write(out, written);
        } catch (IOException e) {
            hungUp.countDown(); // the client closed the connection (or the test closed the server)
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void readHeaders(InputStream in) throws IOException {
        int matched = 0;
        byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        while (matched < end.length) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("request ended before its headers");
            }
            matched = b == end[matched] ? matched + 1 : (b == end[0] ? 1 : 0);
        }
    }

    /** Whether the client hung up within {@code millis}. */
    boolean hungUpWithin(long millis) throws InterruptedException {
        return hungUp.await(millis, TimeUnit.MILLISECONDS);
    }

    long bodyBytesWritten() {
        return written.get();
    }

    @Override
    public void close() throws IOException {
        server.close();
        thread.interrupt();
    }
}
