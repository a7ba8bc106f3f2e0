package org.camdoop.cli.fuzz;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.transport.wire.FrameLayout;
import org.camdoop.torus.transport.wire.FrameWriter;
import org.camdoop.torus.transport.wire.MessageType;

/**
 * An attacker without the cluster secret at the daemons' torus ports: each connection gets a burst of frames (a HELLO
 * with random or mutated fields, then AUTH, routed or random frames, or bytes with no framing at all) and is read until
 * the daemon closes it. A daemon answers only ERROR frames (and its own HELLO) before a peer has proved itself; anything
 * else counts as a malformed reply. Connections close with a reset (SO_LINGER 0), so a million of them leave no
 * TIME_WAIT behind on this side.
 */
final class TorusFuzzer implements Runnable {

    private final List<InetSocketAddress> ports;
    private final FrameCounts counts;
    private final BooleanSupplier keepGoing;
    private final SplittableRandom random;

    TorusFuzzer(List<InetSocketAddress> ports, FrameCounts counts, BooleanSupplier keepGoing, long seed) {
        this.ports = ports;
        this.counts = counts;
        this.keepGoing = keepGoing;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public void run() {
        while (keepGoing.getAsBoolean()) {
            try (Socket s = new Socket()) {
                s.setSoLinger(true, 0);
                s.setSoTimeout(5_000);
                s.connect(ports.get(random.nextInt(ports.size())), 5_000);
                counts.torusConnections.increment();
                ByteArrayOutputStream burst = new ByteArrayOutputStream();
                int frames = 1 + random.nextInt(4);
                for (int i = 0; i < frames; i++) {
                    burst.writeBytes(frame(i));
                }
                // Last, a frame of a type no daemon knows: whatever came before (a mutant that still parsed leaves
                // the handshake waiting for more), the daemon must now refuse and close rather than wait it out.
                burst.writeBytes(new byte[] {0, 0, 0, 2, (byte) 0xee, 0});
                frames++;
                OutputStream out = s.getOutputStream();
                out.write(burst.toByteArray());
                out.flush();
                s.shutdownOutput(); // a frame announcing more than came must not leave the daemon waiting
                counts.torusFrames.add(frames);
                readUntilClosed(new DataInputStream(s.getInputStream()));
            } catch (IOException e) {
                // refused, reset or timed out: the daemon's business; the next connection goes on
            }
        }
    }

    private byte[] frame(int position) {
        int kind = random.nextInt(10);
        if (position == 0 && kind < 5) {
            return mutate(bytes(FrameWriter.hello(ByteBufAllocator.DEFAULT, FrameLayout.PROTOCOL_VERSION,
                    coord(), coord(), randomBytes(FrameLayout.NONCE_BYTES), random.nextLong())));
        }
        return switch (kind) {
            case 0, 1, 2 -> mutate(bytes(FrameWriter.auth(ByteBufAllocator.DEFAULT, randomBytes(32))));
            case 3, 4 -> {
                byte[] body = randomBytes(random.nextInt(64));
                byte[] f = new byte[6 + body.length];
                int length = f.length - 4;
                f[0] = (byte) (length >>> 24);
                f[1] = (byte) (length >>> 16);
                f[2] = (byte) (length >>> 8);
                f[3] = (byte) length;
                f[4] = (byte) MessageType.values()[random.nextInt(MessageType.values().length)].code();
                System.arraycopy(body, 0, f, 6, body.length);
                yield f;
            }
            case 5 -> randomBytes(1 + random.nextInt(40)); // no framing at all
            case 6 -> new byte[] {(byte) 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 6}; // a 2 GiB announcement
            default -> mutate(bytes(FrameWriter.bare(ByteBufAllocator.DEFAULT, MessageType.HEARTBEAT)));
        };
    }

    /** Flips a few random bytes (never the whole frame: most mutants should still parse as far as the checks). */
    private byte[] mutate(byte[] frame) {
        int flips = random.nextInt(4);
        for (int i = 0; i < flips; i++) {
            frame[random.nextInt(frame.length)] = (byte) random.nextInt(256);
        }
        return frame;
    }

    private void readUntilClosed(DataInputStream in) throws IOException {
        while (true) {
            int length;
            try {
                length = in.readInt();
            } catch (java.io.EOFException closed) {
                return;
            }
            if (length < 2 || length > 4096) {
                counts.malformedReplies.increment();
                return;
            }
            byte[] f = new byte[length];
            in.readFully(f);
            int type = f[0] & 0xff;
            if (type == MessageType.ERROR.code()) {
                counts.torusErrorsBack.increment();
            } else if (type != MessageType.HELLO.code()) {
                counts.malformedReplies.increment(); // nothing but HELLO or ERROR to an unproven dialer
            }
        }
    }

    private Coord coord() {
        return new Coord(random.nextInt(4), random.nextInt(2), random.nextInt(2));
    }

    private byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static byte[] bytes(ByteBuf b) {
        try {
            return ByteBufUtil.getBytes(b);
        } finally {
            b.release();
        }
    }
}
