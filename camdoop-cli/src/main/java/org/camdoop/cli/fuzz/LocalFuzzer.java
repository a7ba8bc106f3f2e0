package org.camdoop.cli.fuzz;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import org.camdoop.shuffle.protocol.LocalWire;

/**
 * A local process at the daemons' Unix sockets, running as the job's own user (so its requests reach the proof checks
 * rather than stopping at the peer check): well-framed requests of every type whose bodies are the real thing mutated
 * (the fuzzed job's id, a spec encoding, plausible attempts, random proofs), random bodies, requests out of place and
 * frames with broken headers. Each request is answered before the next is sent; a daemon that closes the connection
 * (as it must after a broken header) gets a new one.
 */
final class LocalFuzzer implements Runnable {

    private static final Set<Integer> REPLIES = Set.of(LocalWire.OK, LocalWire.REFUSED, LocalWire.CHUNK, LocalWire.END,
            LocalWire.FAILED, LocalWire.NONCE_IS, LocalWire.PAUSED);

    private static final int[] REQUESTS = {LocalWire.REGISTER_JOB, LocalWire.REGISTER_MAP_OUTPUT, LocalWire.PUT_JAR,
        LocalWire.START_SHUFFLE, LocalWire.NONCE, LocalWire.RESUME_SHUFFLE};

    private final List<Path> sockets;
    private final byte[] specEncoding;
    private final FrameCounts counts;
    private final BooleanSupplier keepGoing;
    private final SplittableRandom random;

    LocalFuzzer(List<Path> sockets, byte[] specEncoding, FrameCounts counts, BooleanSupplier keepGoing, long seed) {
        this.sockets = sockets;
        this.specEncoding = specEncoding;
        this.counts = counts;
        this.keepGoing = keepGoing;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public void run() {
        while (keepGoing.getAsBoolean()) {
            try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
                ch.connect(UnixDomainSocketAddress.of(sockets.get(random.nextInt(sockets.size()))));
                counts.localConnections.increment();
                DataOutputStream out = new DataOutputStream(Channels.newOutputStream(ch));
                DataInputStream in = new DataInputStream(Channels.newInputStream(ch));
                while (keepGoing.getAsBoolean()) {
                    if (!exchange(out, in)) {
                        break;
                    }
                }
            } catch (IOException e) {
                // the daemon closed or reset the connection: its right; the next one goes on
            }
        }
    }

    /** Sends one frame and reads its answer; false when the connection is over. */
    private boolean exchange(DataOutputStream out, DataInputStream in) throws IOException {
        int kind = random.nextInt(100);
        if (kind < 2) { // a broken header: the daemon answers REFUSED and closes
            out.writeInt(random.nextBoolean() ? 0x7fffffff : 0);
            out.writeByte(random.nextInt(256));
            out.flush();
            counts.localFrames.increment();
            drainToClose(in);
            return false;
        }
        // Mostly requests the daemon answers and keeps the connection for; a few it must close on (a type it does not
        // know, a jar piece out of place, a NONCE with a body).
        int type = kind < 4 ? random.nextInt(256) : kind < 6 ? LocalWire.JAR_PIECE : REQUESTS[random.nextInt(REQUESTS.length)];
        byte[] body = type == LocalWire.NONCE && kind >= 8 ? new byte[0]
                : kind < 20 ? randomBytes(random.nextInt(200)) : mutate(body(type));
        out.writeInt(body.length + 1);
        out.writeByte(type);
        out.write(body);
        out.flush();
        counts.localFrames.increment();
        LocalWire.Frame reply;
        try {
            reply = LocalWire.read(in, LocalWire::replyCap);
        } catch (LocalWire.BadFrameException e) {
            counts.malformedReplies.increment();
            return false;
        }
        if (reply == null) {
            return false;
        }
        if (!REPLIES.contains(reply.type())) {
            counts.malformedReplies.increment();
            return false;
        }
        if (reply.type() == LocalWire.REFUSED) {
            counts.localRefusals.increment();
        } else {
            counts.localOther.increment();
        }
        // OK to a PUT_JAR would ask for its pieces; an unknown type or JAR_PIECE out of place closes: start afresh.
        return type != LocalWire.PUT_JAR || reply.type() == LocalWire.REFUSED;
    }

    private void drainToClose(DataInputStream in) {
        try {
            while (LocalWire.read(in, LocalWire::replyCap) != null) {
                // the refusal of the broken header, then the close
            }
        } catch (IOException closed) {
            // closed or reset: as expected
        }
    }

    /** A plausible body of request {@code type}, as a task would send it but with a proof the fuzzer cannot know. */
    private byte[] body(int type) {
        return LocalWire.body(o -> {
            switch (type) {
                case LocalWire.REGISTER_JOB -> {
                    LocalWire.writeBytes(o, specEncoding);
                    LocalWire.writeBytes(o, randomBytes(32));
                }
                case LocalWire.REGISTER_MAP_OUTPUT -> {
                    o.writeUTF(jobId());
                    o.writeUTF(String.format("attempt_1700000000000_0777_m_%06d_%d", random.nextInt(4),
                            random.nextInt(3)));
                    o.writeInt(random.nextInt(5));
                    LocalWire.writeBytes(o, randomBytes(32));
                }
                case LocalWire.PUT_JAR -> {
                    o.writeUTF(jobId());
                    o.write(randomBytes(32));
                    o.writeLong(random.nextInt(1 << 20));
                    LocalWire.writeBytes(o, randomBytes(32));
                }
                case LocalWire.START_SHUFFLE -> {
                    o.writeUTF(jobId());
                    o.writeInt(random.nextInt(4));
                    o.writeInt(random.nextInt(3));
                    o.writeByte(random.nextInt(3));
                    o.writeByte(random.nextInt(2));
                    int n = random.nextInt(4);
                    o.writeInt(n);
                    for (int i = 0; i < n; i++) {
                        o.writeUTF(String.format("attempt_1700000000000_0777_m_%06d_0", i));
                    }
                    LocalWire.writeBytes(o, randomBytes(32));
                }
                default -> o.write(randomBytes(random.nextInt(64)));
            }
        });
    }

    private String jobId() {
        return random.nextInt(8) == 0 ? "job_1700000000000_" + random.nextInt(10_000) : FuzzCluster.JOB;
    }

    private byte[] mutate(byte[] body) {
        if (body.length == 0 || random.nextBoolean()) {
            return body;
        }
        int flips = 1 + random.nextInt(3);
        for (int i = 0; i < flips; i++) {
            body[random.nextInt(body.length)] = (byte) random.nextInt(256);
        }
        return body;
    }

    private byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}
