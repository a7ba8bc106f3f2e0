package org.camdoop.torus.transport;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.camdoop.torus.transport.link.LinkSettings;

/**
 * Every configuration key of the transport with its default, read from a plain map (the daemon fills it from
 * {@code camdoop-site.xml}; tests build it by hand). Immutable. Each key is documented in {@code conf/camdoop-site.xml}.
 */
public final class TransportConfig {

    public static final String TOPOLOGY_FILE = "camdoop.topology.file";
    public static final String DEFAULT_TOPOLOGY_FILE = "conf/topology";

    /** Shared by all daemons of a cluster; proven in each handshake, never sent. No default: it must be set. */
    public static final String CLUSTER_SECRET = "camdoop.cluster.secret";

    public static final String SEGMENT_BYTES = "camdoop.transport.segment.bytes";
    public static final int DEFAULT_SEGMENT_BYTES = 64 * 1024;

    public static final String MAX_FRAME_BYTES = "camdoop.transport.frame.max.bytes";
    public static final int DEFAULT_MAX_FRAME_BYTES = 65 * 1024;

    public static final String BUFFER_BUDGET_BYTES = "camdoop.transport.buffer.budget.bytes";
    public static final long DEFAULT_BUFFER_BUDGET_BYTES = 256L * 1024 * 1024;

    public static final String MIN_BUFFERS_PER_STREAM = "camdoop.transport.buffer.min.per.stream";
    public static final int DEFAULT_MIN_BUFFERS_PER_STREAM = 2;

    /**
     * 64 buffers: 4 MB at the default segment, 32 ms of a 1 Gbit/s link; at the benchmarks' 8 KB segments and 50 Mbit/s
     * links, 512 KB, 80 ms (the benchmarks scale segments down with the link rate). 16 cost a quarter more CPU on fast
     * links: a receiver announces credit every quarter window, so small windows mean many CREDIT frames and many waits.
     */
    public static final String MAX_BUFFERS_PER_STREAM = "camdoop.transport.buffer.max.per.stream";
    public static final int DEFAULT_MAX_BUFFERS_PER_STREAM = 64;

    public static final String HEARTBEAT_INTERVAL_MS = "camdoop.transport.heartbeat.interval.ms";
    public static final long DEFAULT_HEARTBEAT_INTERVAL_MS = 1000;

    public static final String HEARTBEAT_TIMEOUT_MS = "camdoop.transport.heartbeat.timeout.ms";
    public static final long DEFAULT_HEARTBEAT_TIMEOUT_MS = 5000;

    public static final String HANDSHAKE_TIMEOUT_MS = "camdoop.transport.handshake.timeout.ms";
    public static final long DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;

    public static final String RECONNECT_INITIAL_MS = "camdoop.transport.reconnect.initial.ms";
    public static final long DEFAULT_RECONNECT_INITIAL_MS = 100;

    public static final String RECONNECT_MAX_MS = "camdoop.transport.reconnect.max.ms";
    public static final long DEFAULT_RECONNECT_MAX_MS = 10_000;

    public static final String FAILURE_TIMEOUT_MS = "camdoop.transport.failure.timeout.ms";
    public static final long DEFAULT_FAILURE_TIMEOUT_MS = 30_000;

    /**
     * A stream with frames unacknowledged and no acknowledgement for this long probes from its last acknowledged
     * sequence; one that granted credit and heard nothing for this long repeats its announcement. Covers frames and
     * credit lost on a path whose link broke and came back (no view change tells the ends). 0 turns it off
     * (docs/recovery.md).
     */
    public static final String RETRANSMIT_TIMEOUT_MS = "camdoop.transport.retransmit.timeout.ms";
    public static final long DEFAULT_RETRANSMIT_TIMEOUT_MS = 10_000;

    public static final String SHAPING_BYTES_PER_SECOND = "camdoop.transport.shaping.bytes.per.second";
    public static final long DEFAULT_SHAPING_BYTES_PER_SECOND = 0;

    public static final String SHAPING_BURST_BYTES = "camdoop.transport.shaping.burst.bytes";
    public static final long DEFAULT_SHAPING_BURST_BYTES = 256 * 1024;

    public static final String NATIVE_TRANSPORT = "camdoop.transport.native";
    public static final boolean DEFAULT_NATIVE_TRANSPORT = true;

    public static final String WRITE_BUFFER_HIGH_BYTES = "camdoop.transport.write.buffer.high.bytes";
    public static final int DEFAULT_WRITE_BUFFER_HIGH_BYTES = 1024 * 1024;

    /**
     * Bytes of routed frames one daemon holds in transit for other servers, across all its links; a frame beyond it is
     * dropped and counted (honest senders stay below it: end-to-end credit bounds what each stream has in flight).
     */
    public static final String TRANSIT_MAX_BYTES = "camdoop.transport.transit.max.bytes";
    public static final long DEFAULT_TRANSIT_MAX_BYTES = 64L * 1024 * 1024;

    /**
     * Unsent bytes a link's connection may hold before service messages (best effort) are dropped instead of queued:
     * a neighbour that stops reading cannot make a daemon buffer them without bound.
     */
    public static final String SERVICE_QUEUE_MAX_BYTES = "camdoop.transport.service.queue.max.bytes";
    public static final long DEFAULT_SERVICE_QUEUE_MAX_BYTES = 8L * 1024 * 1024;

    /**
     * TLS on torus links, with mutual authentication; the daemon takes key and trust material from Hadoop's
     * {@code ssl-server.xml} and {@code ssl-client.xml}. Every daemon of a cluster must agree.
     */
    public static final String SSL_ENABLED = "camdoop.transport.ssl.enabled";
    public static final boolean DEFAULT_SSL_ENABLED = false;

    /** Weight of a job that the service gave none. */
    public static final String JOB_WEIGHT = "camdoop.transport.job.weight.default";
    public static final int DEFAULT_JOB_WEIGHT = 1;

    private final Map<String, String> values;

    private TransportConfig(Map<String, String> values) {
        this.values = Map.copyOf(values);
        validate();
    }

    public static TransportConfig of(Map<String, String> values) {
        return new TransportConfig(values);
    }

    public static TransportConfig of(Properties p) {
        Map<String, String> m = new HashMap<>();
        for (String k : p.stringPropertyNames()) {
            m.put(k, p.getProperty(k));
        }
        return new TransportConfig(m);
    }

    /** This configuration with one key changed. */
    public TransportConfig with(String key, Object value) {
        Map<String, String> m = new HashMap<>(values);
        m.put(key, String.valueOf(value));
        return new TransportConfig(m);
    }

    public String topologyFile() {
        return values.getOrDefault(TOPOLOGY_FILE, DEFAULT_TOPOLOGY_FILE);
    }

    /** @throws IllegalStateException when no secret is configured, or one shorter than 32 bytes */
    public String clusterSecret() {
        String s = values.get(CLUSTER_SECRET);
        if (s == null || s.isEmpty()) {
            throw new IllegalStateException(CLUSTER_SECRET + " is not set: every daemon of a cluster needs the same secret");
        }
        int n = s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (n < org.camdoop.torus.transport.link.HandshakeProof.MIN_SECRET_BYTES) {
            throw new IllegalStateException(CLUSTER_SECRET + " is " + n + " bytes long; it must have at least "
                    + org.camdoop.torus.transport.link.HandshakeProof.MIN_SECRET_BYTES
                    + " (a long random string, the same on every daemon)");
        }
        return s;
    }

    public int segmentBytes() {
        return (int) longValue(SEGMENT_BYTES, DEFAULT_SEGMENT_BYTES);
    }

    public int maxFrameBytes() {
        return (int) longValue(MAX_FRAME_BYTES, DEFAULT_MAX_FRAME_BYTES);
    }

    public long bufferBudgetBytes() {
        return longValue(BUFFER_BUDGET_BYTES, DEFAULT_BUFFER_BUDGET_BYTES);
    }

    public int minBuffersPerStream() {
        return (int) longValue(MIN_BUFFERS_PER_STREAM, DEFAULT_MIN_BUFFERS_PER_STREAM);
    }

    public int maxBuffersPerStream() {
        return (int) Math.min(Integer.MAX_VALUE, longValue(MAX_BUFFERS_PER_STREAM, DEFAULT_MAX_BUFFERS_PER_STREAM));
    }

    public long heartbeatIntervalNanos() {
        return longValue(HEARTBEAT_INTERVAL_MS, DEFAULT_HEARTBEAT_INTERVAL_MS) * 1_000_000;
    }

    public long heartbeatTimeoutNanos() {
        return longValue(HEARTBEAT_TIMEOUT_MS, DEFAULT_HEARTBEAT_TIMEOUT_MS) * 1_000_000;
    }

    public long handshakeTimeoutNanos() {
        return longValue(HANDSHAKE_TIMEOUT_MS, DEFAULT_HANDSHAKE_TIMEOUT_MS) * 1_000_000;
    }

    public long reconnectInitialNanos() {
        return longValue(RECONNECT_INITIAL_MS, DEFAULT_RECONNECT_INITIAL_MS) * 1_000_000;
    }

    public long reconnectMaxNanos() {
        return longValue(RECONNECT_MAX_MS, DEFAULT_RECONNECT_MAX_MS) * 1_000_000;
    }

    public long failureTimeoutNanos() {
        return longValue(FAILURE_TIMEOUT_MS, DEFAULT_FAILURE_TIMEOUT_MS) * 1_000_000;
    }

    public long retransmitTimeoutNanos() {
        return longValue(RETRANSMIT_TIMEOUT_MS, DEFAULT_RETRANSMIT_TIMEOUT_MS) * 1_000_000;
    }

    /** Bytes per second per direction of each link; 0 = no shaping. */
    public long shapingBytesPerSecond() {
        return longValue(SHAPING_BYTES_PER_SECOND, DEFAULT_SHAPING_BYTES_PER_SECOND);
    }

    public long shapingBurstBytes() {
        return longValue(SHAPING_BURST_BYTES, DEFAULT_SHAPING_BURST_BYTES);
    }

    public boolean nativeTransport() {
        return Boolean.parseBoolean(values.getOrDefault(NATIVE_TRANSPORT, String.valueOf(DEFAULT_NATIVE_TRANSPORT)));
    }

    public int writeBufferHighBytes() {
        return (int) longValue(WRITE_BUFFER_HIGH_BYTES, DEFAULT_WRITE_BUFFER_HIGH_BYTES);
    }

    /**
     * Most frames a receiver acknowledges or credits per CREDIT announcement: one write buffer's worth of segments, so
     * an announcement costs at most one small frame per flush of data.
     */
    public int announceBatch() {
        return Math.max(1, writeBufferHighBytes() / segmentBytes());
    }

    public long transitMaxBytes() {
        return longValue(TRANSIT_MAX_BYTES, DEFAULT_TRANSIT_MAX_BYTES);
    }

    public long serviceQueueMaxBytes() {
        return longValue(SERVICE_QUEUE_MAX_BYTES, DEFAULT_SERVICE_QUEUE_MAX_BYTES);
    }

    public boolean sslEnabled() {
        return Boolean.parseBoolean(values.getOrDefault(SSL_ENABLED, String.valueOf(DEFAULT_SSL_ENABLED)).trim());
    }

    /** The part of this configuration a link's pipeline uses. */
    public LinkSettings linkSettings() {
        return new LinkSettings(maxFrameBytes(), handshakeTimeoutNanos(), heartbeatIntervalNanos(),
                heartbeatTimeoutNanos(), shapingBytesPerSecond(), shapingBurstBytes());
    }

    public int defaultJobWeight() {
        return (int) longValue(JOB_WEIGHT, DEFAULT_JOB_WEIGHT);
    }

    private long longValue(String key, long dflt) {
        String v = values.get(key);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " = '" + v + "' is not an integer");
        }
    }

    private void validate() {
        if (maxFrameBytes() < segmentBytes() + 64) {
            throw new IllegalArgumentException(MAX_FRAME_BYTES + " (" + maxFrameBytes() + ") must exceed "
                    + SEGMENT_BYTES + " (" + segmentBytes() + ") by at least 64 bytes of header");
        }
        if (heartbeatTimeoutNanos() <= heartbeatIntervalNanos()) {
            throw new IllegalArgumentException(HEARTBEAT_TIMEOUT_MS + " must exceed " + HEARTBEAT_INTERVAL_MS);
        }
        if (transitMaxBytes() < maxFrameBytes()) {
            throw new IllegalArgumentException(TRANSIT_MAX_BYTES + " (" + transitMaxBytes() + ") must hold at least one"
                    + " frame of " + MAX_FRAME_BYTES + " (" + maxFrameBytes() + ")");
        }
        if (serviceQueueMaxBytes() < maxFrameBytes()) {
            throw new IllegalArgumentException(SERVICE_QUEUE_MAX_BYTES + " (" + serviceQueueMaxBytes() + ") must hold at"
                    + " least one frame of " + MAX_FRAME_BYTES + " (" + maxFrameBytes() + ")");
        }
        if (defaultJobWeight() < 1) {
            throw new IllegalArgumentException(JOB_WEIGHT + " must be at least 1");
        }
    }
}
