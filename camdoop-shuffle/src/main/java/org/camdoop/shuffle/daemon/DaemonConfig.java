package org.camdoop.shuffle.daemon;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.camdoop.shuffle.jobs.JobsConfig;
import org.camdoop.shuffle.service.ServiceLimits;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.transport.TransportConfig;

/**
 * The daemon's own configuration keys, with their defaults, read from a Hadoop {@link Configuration} (which loads
 * {@code camdoop-site.xml}). Transport keys live in {@link TransportConfig}, job keys in
 * {@link org.camdoop.shuffle.jobs.JobsConfig}; every key is documented in {@code conf/camdoop-site.xml}.
 */
public final class DaemonConfig {

    /** This daemon's coordinate {@code x,y,z}; empty: the topology file line whose host is this machine. */
    public static final String COORDINATE = "camdoop.daemon.coordinate";
    public static final String DEFAULT_COORDINATE = "";

    /** Threads that run vertices (merge and combine); 0 means one per core. */
    public static final String VERTEX_THREADS = "camdoop.daemon.vertex.threads";
    public static final int DEFAULT_VERTEX_THREADS = 0;

    /** Records a vertex merges before yielding its thread to other vertices. */
    public static final String PUMP_RECORDS = "camdoop.daemon.vertex.pump.records";
    public static final int DEFAULT_PUMP_RECORDS = 4096;

    /** Chunks buffered between a root vertex and its reduce task. */
    public static final String ROOT_CHUNKS = "camdoop.daemon.root.buffer.chunks";
    public static final int DEFAULT_ROOT_CHUNKS = 16;

    /** How often idle jobs are expired from the registry. */
    public static final String EXPIRY_INTERVAL_MS = "camdoop.daemon.job.expiry-interval-ms";
    public static final long DEFAULT_EXPIRY_INTERVAL_MS = 60_000;

    /**
     * How long a daemon holds a shuffle START for a job it does not know yet, waiting for the root's spec broadcast,
     * before failing its vertices; also how long a root keeps re-sending START (after 1 s, backing off to 8 s) to daemons that have not acknowledged it.
     */
    public static final String SPEC_WAIT_MS = "camdoop.daemon.spec.wait-ms";
    public static final long DEFAULT_SPEC_WAIT_MS = 30_000;

    /**
     * The Unix domain socket of the daemon's local endpoint, where its tasks register map outputs and start shuffles;
     * empty: {@code camdoop/daemon.sock} under the first local dir (or a private directory under {@code /tmp} when
     * that path is too long for a socket). Tasks read the same key ({@code CamdoopJobConfig.DAEMON_LOCAL_SOCKET}).
     */
    public static final String LOCAL_SOCKET = "camdoop.daemon.local.socket";
    public static final String DEFAULT_LOCAL_SOCKET = "";

    /** Local connections served at once (each has a thread); more are refused. */
    public static final String LOCAL_MAX_CONNECTIONS = "camdoop.daemon.local.max-connections";
    public static final int DEFAULT_LOCAL_MAX_CONNECTIONS = 128;

    /**
     * Local connections the daemon holds at once for one user other than its own: so that one user's tasks cannot
     * take every slot of the node.
     */
    public static final String LOCAL_MAX_CONNECTIONS_PER_USER = "camdoop.daemon.local.max-connections-per-user";
    public static final int DEFAULT_LOCAL_MAX_CONNECTIONS_PER_USER = 64;

    /** Milliseconds a local connection may wait between requests before the daemon closes it. */
    public static final String LOCAL_IDLE_TIMEOUT_MS = "camdoop.daemon.local.idle-timeout-ms";
    public static final long DEFAULT_LOCAL_IDLE_TIMEOUT_MS = 120_000;

    /** Milliseconds a local request (or jar piece) may take to arrive once its first byte has. */
    public static final String LOCAL_FRAME_TIMEOUT_MS = "camdoop.daemon.local.frame-timeout-ms";
    public static final long DEFAULT_LOCAL_FRAME_TIMEOUT_MS = 30_000;

    /**
     * Milliseconds a shuffle that lost map outputs waits, paused, for its reduce task to name the new attempts of those
     * maps (the ApplicationMaster runs them again); then it fails, and so does the reduce attempt.
     */
    public static final String SHUFFLE_PAUSE_TIMEOUT_MS = "camdoop.daemon.shuffle.pause-timeout-ms";
    public static final long DEFAULT_SHUFFLE_PAUSE_TIMEOUT_MS = 600_000;

    /**
     * In a NodeManager only (CamdoopShuffleHandler): a directory shared by the daemons of one host where, when {@link #COORDINATE} is unset,
     * each claims the first free coordinate of this host with a lock file; empty: no claiming.
     */
    public static final String CLAIM_DIR = "camdoop.daemon.claim.dir";
    public static final String DEFAULT_CLAIM_DIR = "";

    /**
     * A file the daemon keeps listing its links, up or down, while it runs ({@code sbin/camdoop-daemons.sh check} reads
     * it); empty: none.
     */
    public static final String STATUS_FILE = "camdoop.daemon.status-file";
    public static final String DEFAULT_STATUS_FILE = "";

    /**
     * The port of the daemon's read-only HTTP endpoint ({@code /metrics} for Prometheus, {@code /status.json} for
     * {@code camdoop status}), on the address of the daemon's topology line; 0: any free port; -1: none.
     */
    public static final String HTTP_PORT = "camdoop.daemon.http.port";
    public static final int DEFAULT_HTTP_PORT = 7711;

    /**
     * The longest chunk of records a vertex reassembles from the pieces of a child stream (a single record longer than
     * one transport segment is sent in pieces). The copy is outside the transport's buffer budget, so it is bounded: a
     * longer record fails its shuffle with a message naming this key.
     */
    public static final String RECORD_MAX_BYTES = "camdoop.daemon.record.max.bytes";
    public static final long DEFAULT_RECORD_MAX_BYTES = ServiceLimits.DEFAULT_MAX_RECORD_BYTES;

    /**
     * Service messages from peer daemons (START, ABORT, the spec broadcast) received and not yet handled by the vertex
     * threads; more are dropped and logged (best effort: the root re-sends an unacknowledged START).
     */
    public static final String SERVICE_PENDING_MAX = "camdoop.daemon.service.pending.max";
    public static final int DEFAULT_SERVICE_PENDING_MAX = ServiceLimits.DEFAULT_MAX_PENDING_MESSAGES;

    /**
     * Bytes of local map output records a daemon keeps decoded ahead for trees that lag behind the others, shared by
     * all its shuffles; beyond it a lagging tree reads the map output again on its own. 0: each tree keeps 256 KB.
     */
    public static final String READAHEAD_BYTES = "camdoop.daemon.readahead.bytes";
    public static final long DEFAULT_READAHEAD_BYTES = ServiceLimits.DEFAULT_READAHEAD_BYTES;

    private final Configuration conf;

    private DaemonConfig(Configuration conf) {
        this.conf = conf;
    }

    public static DaemonConfig from(Configuration conf) {
        return new DaemonConfig(conf);
    }

    public Configuration hadoop() {
        return conf;
    }

    /** The configured coordinate, if any. @throws IllegalArgumentException if malformed */
    public java.util.Optional<Coord> coordinate() {
        String c = conf.getTrimmed(COORDINATE, DEFAULT_COORDINATE);
        return c.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(Coord.parse(c));
    }

    /** The status file to keep, if any. */
    public java.util.Optional<Path> statusFile() {
        String f = conf.getTrimmed(STATUS_FILE, DEFAULT_STATUS_FILE);
        return f.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(Path.of(f));
    }

    /** {@link #HTTP_PORT}, or empty when it is -1. */
    public java.util.OptionalInt httpPort() {
        int port = conf.getInt(HTTP_PORT, DEFAULT_HTTP_PORT);
        if (port < -1 || port > 65535) {
            throw new IllegalArgumentException(HTTP_PORT + " must be a port, 0 (any) or -1 (none), got " + port);
        }
        return port < 0 ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(port);
    }

    public int vertexThreads() {
        int n = conf.getInt(VERTEX_THREADS, DEFAULT_VERTEX_THREADS);
        return n > 0 ? n : Runtime.getRuntime().availableProcessors();
    }

    public int pumpRecords() {
        return positive(PUMP_RECORDS, conf.getInt(PUMP_RECORDS, DEFAULT_PUMP_RECORDS));
    }

    public int rootChunks() {
        return positive(ROOT_CHUNKS, conf.getInt(ROOT_CHUNKS, DEFAULT_ROOT_CHUNKS));
    }

    public long expiryIntervalMs() {
        return positive(EXPIRY_INTERVAL_MS, conf.getLong(EXPIRY_INTERVAL_MS, DEFAULT_EXPIRY_INTERVAL_MS));
    }

    /** The local dirs, at least one. */
    public java.util.List<java.nio.file.Path> localDirs() {
        String[] dirs = conf.getTrimmedStrings(JobsConfig.LOCAL_DIRS, JobsConfig.LOCAL_DIRS_DEFAULT);
        if (dirs.length == 0) {
            throw new IllegalArgumentException(JobsConfig.LOCAL_DIRS + " names no directory");
        }
        return java.util.Arrays.stream(dirs).map(d -> java.nio.file.Path.of(d).toAbsolutePath()).toList();
    }

    /** The configured socket, if any. */
    public java.util.Optional<java.nio.file.Path> localSocket() {
        String s = conf.getTrimmed(LOCAL_SOCKET, DEFAULT_LOCAL_SOCKET);
        return s.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(java.nio.file.Path.of(s));
    }

    public org.camdoop.shuffle.endpoint.LocalEndpoint.Limits localLimits() {
        return new org.camdoop.shuffle.endpoint.LocalEndpoint.Limits(
                positive(LOCAL_MAX_CONNECTIONS, conf.getInt(LOCAL_MAX_CONNECTIONS, DEFAULT_LOCAL_MAX_CONNECTIONS)),
                positive(LOCAL_MAX_CONNECTIONS_PER_USER, conf.getInt(LOCAL_MAX_CONNECTIONS_PER_USER,
                        DEFAULT_LOCAL_MAX_CONNECTIONS_PER_USER)),
                positive(LOCAL_IDLE_TIMEOUT_MS, conf.getLong(LOCAL_IDLE_TIMEOUT_MS, DEFAULT_LOCAL_IDLE_TIMEOUT_MS)),
                positive(LOCAL_FRAME_TIMEOUT_MS,
                        conf.getLong(LOCAL_FRAME_TIMEOUT_MS, DEFAULT_LOCAL_FRAME_TIMEOUT_MS)),
                positive(SHUFFLE_PAUSE_TIMEOUT_MS,
                        conf.getLong(SHUFFLE_PAUSE_TIMEOUT_MS, DEFAULT_SHUFFLE_PAUSE_TIMEOUT_MS)));
    }

    public long specWaitMs() {
        return positive(SPEC_WAIT_MS, conf.getLong(SPEC_WAIT_MS, DEFAULT_SPEC_WAIT_MS));
    }

    /** {@link #RECORD_MAX_BYTES}, {@link #SERVICE_PENDING_MAX} and {@link #READAHEAD_BYTES}. */
    public ServiceLimits serviceLimits() {
        long readahead = conf.getLong(READAHEAD_BYTES, DEFAULT_READAHEAD_BYTES);
        if (readahead < 0) {
            throw new IllegalArgumentException(READAHEAD_BYTES + " must not be negative, got " + readahead);
        }
        return new ServiceLimits(positive(RECORD_MAX_BYTES, conf.getLong(RECORD_MAX_BYTES, DEFAULT_RECORD_MAX_BYTES)),
                positive(SERVICE_PENDING_MAX, conf.getInt(SERVICE_PENDING_MAX, DEFAULT_SERVICE_PENDING_MAX)),
                readahead);
    }

    /** The transport's settings: every {@code camdoop.*} key of the configuration, defaults left to the transport. */
    public TransportConfig transport() {
        Map<String, String> values = new HashMap<>();
        for (Map.Entry<String, String> e : conf.getPropsWithPrefix("camdoop.").entrySet()) {
            values.put("camdoop." + e.getKey(), conf.get("camdoop." + e.getKey()));
        }
        return TransportConfig.of(values);
    }

    private static <N extends Number> N positive(String key, N value) {
        if (value.longValue() <= 0) {
            throw new IllegalArgumentException(key + " must be positive, got " + value);
        }
        return value;
    }
}
