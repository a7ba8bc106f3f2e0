package org.camdoop.shuffle.daemon;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.TransportListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A standalone daemon's state in a small text file that {@code sbin/camdoop-daemons.sh check} reads on every host: the
 * daemon's coordinate, then one line per torus link with its neighbour and whether it is up. Rewritten (atomically, by
 * a rename) whenever a link comes up or goes down, on a thread of its own so the event loop never waits for the disk;
 * removed when the daemon stops.
 *
 * <pre>
 * coord 1,0,0
 * link +x 2,0,0 up
 * link -x 0,0,0 down
 * </pre>
 */
final class StatusFile implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StatusFile.class);

    private final Path file;
    private final TorusNode node;
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "camdoop-status-file");
        t.setDaemon(true);
        return t;
    });
    /** Set while a rewrite is queued: events that arrive meanwhile are covered by it. */
    private final AtomicBoolean queued = new AtomicBoolean();

    private StatusFile(Path file, TorusNode node) {
        this.file = file;
        this.node = node;
    }

    /** Writes {@code file} now and keeps it current while {@code node} runs. */
    static StatusFile keep(Path file, TorusNode node) throws IOException {
        StatusFile s = new StatusFile(file, node);
        // Listen first, then write: links may come up while the first file is written, and an event between the two
        // would otherwise be lost (the file would show a link down until the next change, which may never come).
        node.addListener(new TransportListener() {
            @Override
            public void linkUp(Port port, Coord peer) {
                s.rewriteSoon();
            }

            @Override
            public void linkDown(Port port, Coord peer, String reason) {
                s.rewriteSoon();
            }
        });
        s.write();
        return s;
    }

    private void rewriteSoon() {
        // Closed: the daemon is stopping, and its links go down as it closes them. Queueing a rewrite then threw from
        // the transport's listener call, which broke off the node's close half way: every daemon stop waited out
        // its 10 s and was killed with -9.
        if (!writer.isShutdown() && queued.compareAndSet(false, true)) {
            writer.execute(() -> {
                queued.set(false);
                try {
                    write();
                } catch (IOException e) {
                    LOG.warn("cannot write the status file {}: {}", file, e.toString());
                }
            });
        }
    }

    /** Synchronized: the first write (the caller's thread) and rewrites (the writer thread) share the temporary file. */
    private synchronized void write() throws IOException {
        TorusShape shape = node.shape();
        int self = shape.index(node.coord());
        StringBuilder b = new StringBuilder("coord ").append(format(node.coord())).append('\n');
        for (Port p : shape.links()) {
            b.append("link ").append(p.label()).append(' ').append(format(shape.coord(shape.neighbour(self, p))))
                    .append(node.isLinkUp(p) ? " up\n" : " down\n");
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, b, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String format(Coord c) {
        return c.x() + "," + c.y() + "," + c.z();
    }

    @Override
    public void close() throws IOException {
        writer.shutdownNow();
        Files.deleteIfExists(file);
    }
}
