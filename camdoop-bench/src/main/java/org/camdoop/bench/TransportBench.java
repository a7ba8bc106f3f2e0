package org.camdoop.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.Topology;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.transport.link.Transports;
import org.camdoop.torus.transport.stream.InboundHandler;
import org.camdoop.torus.transport.stream.InboundStream;
import org.camdoop.torus.transport.stream.OutboundStream;
import org.camdoop.torus.transport.wire.StreamId;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Measures, in one run on loopback: (a) a raw Netty connection with no protocol, (b) one Camdoop link carrying one
 * credit-controlled stream, (c) one link carrying 36 streams of 3 jobs weighted 1, 1, 2, (d) case (b) over TLS
 * (mutual authentication, key material loaded from ssl-server.xml / ssl-client.xml as a daemon does); prints bytes/s,
 * the ratios (b)/(a), (c)/(a) and (d)/(b), and each job's share of (c). Loopback at several GB/s is mostly the
 * kernel's copies and wake-ups, and one run of (a) varies by half from the next, so (a) and (b) are measured in
 * alternated rounds and (b)/(a) is the median of the rounds' ratios.
 */
@Command(name = "transport", mixinStandardHelpOptions = true,
        description = "Throughput of the torus transport on loopback: raw Netty vs one Camdoop link vs 36 weighted streams,"
                + " and one link with TLS on beside off.")
public final class TransportBench implements Callable<Integer> {

    private static final int[] WEIGHTS = {1, 1, 2};
    private static final int STREAMS_PER_JOB = 12;
    /**
     * The link rate (bytes/s) at which job shares are measured. Weighted sharing only shows when the link is the
     * bottleneck; unshaped on two cores the writers and event loops compete for CPU and each job gets what its writer
     * produces, whatever its weight. 200 MB/s is far below what the writers produce here.
     */
    private static final long FAIRNESS_LINK_BYTES_PER_S = 200L * 1000 * 1000;

    /**
     * Warm-up of the TLS case: the JDK's AES-GCM runs at a few MB/s until C2 has compiled it onto its intrinsics, which
     * took 6 s of a tight loop on the loaded 2-core development machine; measured earlier, TLS looks 50x slower than it is.
     */
    private static final long TLS_WARMUP_NANOS = TimeUnit.SECONDS.toNanos(10);

    @Option(names = "--seconds", description = "Measured seconds per case (default: ${DEFAULT-VALUE}).")
    double seconds = 2;

    @Option(names = "--rounds", description = "Rounds of (a) then (b), alternated so that drift in the machine's load"
            + " falls on both; the ratio printed is the median of the rounds' ratios (default: ${DEFAULT-VALUE}).")
    int rounds = 5;

    @Option(names = "--link-only", description = "Measure (a) and (b) only.")
    boolean linkOnly;

    @Option(names = "--json", description = "Print one JSON object instead of text.")
    boolean json;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "A transport setting for every case (e.g. camdoop.transport.segment.bytes=131072); repeatable.")
    Map<String, String> settings = new java.util.LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        Map<String, String> values = new java.util.HashMap<>(settings);
        values.putIfAbsent(TransportConfig.CLUSTER_SECRET, "transport-bench-cluster-secret-" + System.nanoTime());
        TransportConfig cfg = TransportConfig.of(values);
        Transports kind = Transports.socket(cfg.nativeTransport());
        long warmNanos = (long) (Math.min(1.0, seconds / 3) * 1e9);
        long runNanos = (long) (seconds * 1e9);

        if (rounds < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--rounds must be at least 1");
        }
        double[] raws = new double[rounds];
        double[] links = new double[rounds];
        double[] ratios = new double[rounds];
        for (int r = -1; r < rounds; r++) {
            if (r < 0) {
                // An uncounted round: the first link case ran a third slower than the next while C2 compiled it.
                try (RawNettyPipe pipe = new RawNettyPipe(kind, cfg.segmentBytes(), cfg.writeBufferHighBytes())) {
                    measure(pipe::receivedBytes, warmNanos, warmNanos);
                }
                linkCase(cfg, null, 1, new int[] {1}, warmNanos, warmNanos, null);
                continue;
            }
            try (RawNettyPipe pipe = new RawNettyPipe(kind, cfg.segmentBytes(), cfg.writeBufferHighBytes())) {
                raws[r] = measure(pipe::receivedBytes, warmNanos, runNanos);
            }
            links[r] = linkCase(cfg, null, 1, new int[] {1}, warmNanos, runNanos, null);
            ratios[r] = links[r] / raws[r];
            if (!json) {
                System.err.printf("round %d/%d: (a) %,.0f (b) %,.0f bytes/s, (b)/(a) = %.3f%n", r + 1, rounds, raws[r],
                        links[r], ratios[r]);
            }
        }
        double raw = median(raws);
        double link = median(links);
        double ratio = median(ratios);
        if (linkOnly) {
            if (json) {
                System.out.println(new ObjectMapper().createObjectNode().put("transport", kind.name().toLowerCase())
                        .put("seconds", seconds).put("rounds", rounds).put("raw_bytes_per_s", raw)
                        .put("link_bytes_per_s", link).put("ratio_link_raw", ratio));
            } else {
                System.out.printf("(a) raw Netty %,.0f bytes/s, (b) one Camdoop link %,.0f bytes/s, (b)/(a) = %.3f"
                        + " (median of %d rounds, %.3f-%.3f)%n", raw, link, ratio, rounds, min(ratios), max(ratios));
            }
            return 0;
        }
        double tls = linkCase(cfg.with(TransportConfig.SSL_ENABLED, true), BenchTls.create(cfg), 1, new int[] {1},
                Math.max(warmNanos, TLS_WARMUP_NANOS), runNanos, null);
        long[] unshapedPerJob = new long[WEIGHTS.length];
        double multi = linkCase(cfg, null, STREAMS_PER_JOB, WEIGHTS, warmNanos, runNanos, unshapedPerJob);
        long[] perJob = new long[WEIGHTS.length];
        linkCase(cfg.with(TransportConfig.SHAPING_BYTES_PER_SECOND, FAIRNESS_LINK_BYTES_PER_S), null, STREAMS_PER_JOB,
                WEIGHTS, warmNanos, runNanos, perJob);
        double[] shares = shares(perJob);
        double[] unshapedShares = shares(unshapedPerJob);

        if (json) {
            ObjectMapper om = new ObjectMapper();
            ObjectNode o = om.createObjectNode();
            o.put("transport", kind.name().toLowerCase());
            o.put("seconds", seconds);
            o.put("raw_bytes_per_s", raw);
            o.put("link_bytes_per_s", link);
            o.put("multi_bytes_per_s", multi);
            o.put("ratio_link_raw", ratio);
            o.put("rounds", rounds);
            var ratioArr = o.putArray("ratios_link_raw");
            for (double x : ratios) {
                ratioArr.add(x);
            }
            o.put("ratio_multi_raw", multi / raw);
            o.put("tls_link_bytes_per_s", tls);
            o.put("ratio_tls_link", tls / link);
            var shareArr = o.putArray("job_shares");
            for (double s : shares) {
                shareArr.add(s);
            }
            o.put("job_shares_link_bytes_per_s", FAIRNESS_LINK_BYTES_PER_S);
            var unshapedArr = o.putArray("job_shares_unshaped");
            for (double s : unshapedShares) {
                unshapedArr.add(s);
            }
            var weightArr = o.putArray("job_weights");
            for (int w : WEIGHTS) {
                weightArr.add(w);
            }
            System.out.println(om.writeValueAsString(o));
        } else {
            System.out.printf("transport %s, %.1f s per case, loopback; (a) and (b): medians of %d alternated rounds%n",
                    kind.name().toLowerCase(), seconds, rounds);
            System.out.printf("(a) raw Netty, one connection      %,16.0f bytes/s%n", raw);
            System.out.printf("(b) one Camdoop link, one stream   %,16.0f bytes/s   (b)/(a) = %.3f (median of the rounds'"
                    + " ratios, %.3f-%.3f)%n", link, ratio, min(ratios), max(ratios));
            System.out.printf("(c) one link, 36 streams, 3 jobs   %,16.0f bytes/s   (c)/(a) = %.3f%n", multi, multi / raw);
            System.out.printf("(d) as (b) over TLS                %,16.0f bytes/s   (d)/(b) = %.3f  (TLS on beside off)%n",
                    tls, tls / link);
            System.out.printf("    job shares with the link shaped to %,d bytes/s (the link the bottleneck):%n",
                    FAIRNESS_LINK_BYTES_PER_S);
            for (int j = 0; j < shares.length; j++) {
                System.out.printf("    job %d weight %d share %.3f (target %.3f; unshaped %.3f)%n", j + 1, WEIGHTS[j],
                        shares[j], (double) WEIGHTS[j] / 4, unshapedShares[j]);
            }
        }
        return 0;
    }

    static double median(double[] xs) {
        double[] s = xs.clone();
        java.util.Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    private static double min(double[] xs) {
        return java.util.Arrays.stream(xs).min().orElse(Double.NaN);
    }

    private static double max(double[] xs) {
        return java.util.Arrays.stream(xs).max().orElse(Double.NaN);
    }

    private static double[] shares(long[] perJob) {
        long sum = 0;
        for (long b : perJob) {
            sum += b;
        }
        double[] shares = new double[perJob.length];
        for (int j = 0; j < shares.length; j++) {
            shares[j] = sum == 0 ? 0 : (double) perJob[j] / sum;
        }
        return shares;
    }

    /** Bytes per second received during {@code runNanos} after {@code warmNanos} of warm-up. */
    private static double measure(LongSupplier bytes, long warmNanos, long runNanos) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(warmNanos);
        long b0 = bytes.getAsLong();
        long t0 = System.nanoTime();
        TimeUnit.NANOSECONDS.sleep(runNanos);
        long b1 = bytes.getAsLong();
        long t1 = System.nanoTime();
        return (b1 - b0) * 1e9 / (t1 - t0);
    }

    /**
     * Two daemons on a 2x1x1 torus over loopback; {@code streamsPerJob} streams for each job, writers keeping every
     * stream backlogged. Fills {@code perJob} (if given) with bytes received per job during the measurement.
     */
    private static double linkCase(TransportConfig cfg, org.camdoop.torus.transport.link.LinkTls tls,
            int streamsPerJob, int[] weights, long warmNanos, long runNanos, long[] perJob) throws Exception {
        TorusShape shape = new TorusShape(2, 1, 1);
        Coord a = new Coord(0, 0, 0);
        Coord b = new Coord(1, 0, 0);
        Topology topo = Topology.tcp(shape, Map.of(a, freePort(), b, freePort()));
        AtomicLongArray jobBytes = new AtomicLongArray(weights.length);
        AtomicLong total = new AtomicLong();
        ByteBuf segment = PooledByteBufAllocator.DEFAULT.directBuffer(cfg.segmentBytes()).writeZero(cfg.segmentBytes());
        List<Thread> writers = new ArrayList<>();
        try (TorusNode sender = TorusNode.start(cfg, topo, a, tls);
                TorusNode receiver = TorusNode.start(cfg, topo, b, tls)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!(sender.isLinkUp(Port.PLUS_X) && receiver.isLinkUp(Port.PLUS_X))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the benchmark link did not come up");
                }
                Thread.sleep(5);
            }
            Map<Integer, List<OutboundStream>> byJob = new HashMap<>();
            for (int j = 0; j < weights.length; j++) {
                sender.setJobWeight(j, weights[j]);
                final int job = j;
                InboundHandler counter = new InboundHandler() {
                    @Override
                    public void onData(InboundStream s, long seq, ByteBuf data) {
                        int n = data.readableBytes();
                        data.release();
                        s.release(1);
                        jobBytes.addAndGet(job, n);
                        total.addAndGet(n);
                    }

                    @Override
                    public void onEnd(InboundStream s, ByteBuf payload) {
                        payload.release();
                    }
                };
                for (int i = 0; i < streamsPerJob; i++) {
                    StreamId id = new StreamId(j, i, 0, 0);
                    receiver.openInbound(id, a, counter);
                    byJob.computeIfAbsent(j, k -> new ArrayList<>()).add(sender.openOutbound(id, b));
                }
            }
            for (List<OutboundStream> streams : byJob.values()) {
                Thread t = new Thread(() -> keepBacklogged(streams, segment), "bench-writer");
                t.setDaemon(true);
                writers.add(t);
                t.start();
            }
            TimeUnit.NANOSECONDS.sleep(warmNanos);
            long[] j0 = snapshot(jobBytes);
            long b0 = total.get();
            long t0 = System.nanoTime();
            TimeUnit.NANOSECONDS.sleep(runNanos);
            long b1 = total.get();
            long t1 = System.nanoTime();
            long[] j1 = snapshot(jobBytes);
            if (perJob != null) {
                for (int j = 0; j < perJob.length; j++) {
                    perJob[j] = j1[j] - j0[j];
                }
            }
            writers.forEach(Thread::interrupt);
            for (Thread t : writers) {
                t.join(2000);
            }
            return (b1 - b0) * 1e9 / (t1 - t0);
        } finally {
            segment.release();
        }
    }

    /** Keeps every stream full: round-robin tryWrite, waiting for any stream to have room when all are full. */
    private static void keepBacklogged(List<OutboundStream> streams, ByteBuf segment) {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                boolean wrote = false;
                for (OutboundStream s : streams) {
                    ByteBuf d = segment.retainedDuplicate();
                    if (s.tryWrite(d)) {
                        wrote = true;
                    } else {
                        d.release();
                    }
                }
                if (!wrote) {
                    CompletableFuture<?>[] w = streams.stream().map(OutboundStream::whenWritable)
                            .toArray(CompletableFuture[]::new);
                    try {
                        CompletableFuture.anyOf(w).get(50, TimeUnit.MILLISECONDS);
                    } catch (java.util.concurrent.TimeoutException e) {
                        // no credit yet (the receiver may still be opening): try again
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // timeout or the stream closed as the node shuts down: stop writing
        }
    }

    private static long[] snapshot(AtomicLongArray a) {
        long[] r = new long[a.length()];
        for (int i = 0; i < r.length; i++) {
            r[i] = a.get(i);
        }
        return r;
    }

    private static InetSocketAddress freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return InetSocketAddress.createUnresolved("127.0.0.1", s.getLocalPort());
        }
    }
}
