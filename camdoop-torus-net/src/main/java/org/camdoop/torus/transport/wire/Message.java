package org.camdoop.torus.transport.wire;

import java.util.Arrays;
import org.camdoop.torus.topology.Coord;

/**
 * Every frame as a value, for the handshake, for tests and for tools. The data path does not build these: it reads
 * fields in place with {@link RoutedFrames} and writes headers with {@link FrameWriter}.
 */
public sealed interface Message {

    MessageType type();

    /** Routing fields shared by the routed types. */
    record Route(int src, int dst, int hops, StreamId stream) {
    }

    record Hello(int version, Coord from, Coord to, byte[] nonce, long incarnation) implements Message {
        public MessageType type() {
            return MessageType.HELLO;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Hello h && version == h.version && from.equals(h.from) && to.equals(h.to)
                    && Arrays.equals(nonce, h.nonce) && incarnation == h.incarnation;
        }

        @Override
        public int hashCode() {
            return from.hashCode() * 31 + Arrays.hashCode(nonce);
        }
    }

    record Auth(byte[] proof) implements Message {
        public MessageType type() {
            return MessageType.AUTH;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Auth a && Arrays.equals(proof, a.proof);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(proof);
        }
    }

    record Welcome() implements Message {
        public MessageType type() {
            return MessageType.WELCOME;
        }
    }

    record Error(ErrorCode code, String text) implements Message {
        public MessageType type() {
            return MessageType.ERROR;
        }
    }

    record Heartbeat() implements Message {
        public MessageType type() {
            return MessageType.HEARTBEAT;
        }
    }

    record Data(Route route, long seq, byte[] payload) implements Message {
        public MessageType type() {
            return MessageType.DATA;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Data d && route.equals(d.route) && seq == d.seq && Arrays.equals(payload, d.payload);
        }

        @Override
        public int hashCode() {
            return route.hashCode() * 31 + Long.hashCode(seq);
        }
    }

    /** A message for the service above the transport: routed like data, but needs no credit. */
    record Service(Route route, long seq, byte[] payload) implements Message {
        public MessageType type() {
            return MessageType.SERVICE;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Service d && route.equals(d.route) && seq == d.seq && Arrays.equals(payload, d.payload);
        }

        @Override
        public int hashCode() {
            return route.hashCode() * 31 + Arrays.hashCode(payload);
        }
    }

    record End(Route route, long seq, byte[] payload) implements Message {
        public MessageType type() {
            return MessageType.END;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof End d && route.equals(d.route) && seq == d.seq && Arrays.equals(payload, d.payload);
        }

        @Override
        public int hashCode() {
            return route.hashCode() * 31 + Long.hashCode(seq);
        }
    }

    record Credit(Route route, long acked, long limit) implements Message {
        public MessageType type() {
            return MessageType.CREDIT;
        }
    }

    record Urgent(Route route, boolean urgent) implements Message {
        public MessageType type() {
            return MessageType.URGENT;
        }
    }
}
