package org.camdoop.shuffle.service.vertex;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.aggregation.ReadaheadPool;
import org.camdoop.shuffle.protocol.EndOfStream;
import org.camdoop.shuffle.service.plan.ShufflePlan;
import org.camdoop.shuffle.service.plan.StreamEdge;
import org.camdoop.shuffle.service.plan.VertexPlan;

/**
 * Runs every vertex of a shuffle plan in one JVM, connected by in-memory links that enforce a credit window per
 * stream, like the transport does: the vertex logic end to end without sockets.
 */
final class InMemoryShuffle implements AutoCloseable {
    /** Each server's read-ahead pool: small, so lagging stripes both borrow and, once it is lent out, detach. */
    private static final long READAHEAD_BYTES = 64 * 1024;

    private final ExecutorService executor = Executors.newFixedThreadPool(3);
    private final List<Vertex> vertices = new ArrayList<>();
    private final Map<StreamEdge, Link> links = new HashMap<>();
    final RootSink root;
    final AtomicLong linkChunks = new AtomicLong();
    final AtomicInteger maxHeldPerLink = new AtomicInteger();

    /**
     * @param localOutputs map outputs per server index
     * @param window       credits per stream
     */
    InMemoryShuffle(ShufflePlan plan, int servers, JobAggregationSpec spec,
            Map<Integer, List<LocalMapOutput>> localOutputs, int window) throws Exception {
        this(plan, servers, spec, localOutputs, window, System::nanoTime, false);
    }

    /**
     * @param clock    the vertices' clock (their waits for credit)
     * @param gateRoot whether the reduce task's end refuses chunks until {@link RootSink#open()}
     */
    InMemoryShuffle(ShufflePlan plan, int servers, JobAggregationSpec spec,
            Map<Integer, List<LocalMapOutput>> localOutputs, int window, java.util.function.LongSupplier clock,
            boolean gateRoot) throws Exception {
        this.root = new RootSink(gateRoot);
        Map<StreamEdge, Vertex> receivers = new HashMap<>();
        Map<StreamEdge, Integer> inputIndex = new HashMap<>();
        List<Object[]> toStart = new ArrayList<>();
        for (int server = 0; server < servers; server++) {
            for (VertexPlan vp : plan.forServer(server)) {
                for (StreamEdge e : vp.inputs()) {
                    links.computeIfAbsent(e, k -> new Link(window));
                }
                VertexOutput out = vp.isRoot() ? root
                        : links.computeIfAbsent(vp.output().orElseThrow(), k -> new Link(window));
                List<Link> inputLinks = vp.inputs().stream().map(links::get).toList();
                VertexContext ctx = new VertexContext(plan.spec(), vp, spec, out,
                        (child, urgent) -> inputLinks.get(child).urgentSignals.incrementAndGet(), executor, 512,
                        clock);
                Vertex v = new Vertex(ctx, server + "/" + vp.vertex());
                vertices.add(v);
                for (int i = 0; i < vp.inputs().size(); i++) {
                    receivers.put(vp.inputs().get(i), v);
                    inputIndex.put(vp.inputs().get(i), i);
                }
                toStart.add(new Object[] {v, vp, server});
            }
        }
        links.forEach((edge, link) -> link.connect(receivers.get(edge), inputIndex.get(edge)));
        // As a daemon does: each server's vertices share one decode of each of its map outputs (StripeDemux).
        Map<Integer, List<Object[]>> byServer = new java.util.TreeMap<>();
        for (Object[] o : toStart) {
            byServer.computeIfAbsent((Integer) o[2], k -> new ArrayList<>()).add(o);
        }
        for (Map.Entry<Integer, List<Object[]>> e : byServer.entrySet()) {
            List<Object[]> reading = e.getValue().stream().filter(o -> ((VertexPlan) o[1]).local().isPresent())
                    .toList();
            List<LocalInputs.Reader> readers = new ArrayList<>();
            for (Object[] o : reading) {
                readers.add(new LocalInputs.Reader(((VertexPlan) o[1]).local().get(), ((Vertex) o[0])::onLocalData));
            }
            List<LocalInputs> inputs = LocalInputs.openShared(spec, localOutputs.getOrDefault(e.getKey(), List.of()),
                    plan.spec().expectedAttempts(), plan.spec().partition(), readers,
                    new ReadaheadPool(READAHEAD_BYTES), plan.spec().generation().resumeAfter());
            for (int i = 0; i < reading.size(); i++) {
                ((Vertex) reading.get(i)[0]).start(inputs.get(i).runs(), inputs.get(i).attempts());
            }
            for (Object[] o : e.getValue()) {
                if (((VertexPlan) o[1]).local().isEmpty()) {
                    LocalInputs none = LocalInputs.none();
                    ((Vertex) o[0]).start(none.runs(), none.attempts());
                }
            }
        }
    }

    List<Vertex> vertices() {
        return vertices;
    }

    @Override
    public void close() throws InterruptedException {
        executor.shutdownNow();
        executor.awaitTermination(5, TimeUnit.SECONDS);
    }

    /** One stream: delivers chunks to the receiving vertex while it has credit; credit returns on release. */
    final class Link implements VertexOutput {
        private final AtomicInteger credits;
        private final int window;
        private final AtomicReference<Runnable> waiter = new AtomicReference<>();
        final AtomicInteger urgentSignals = new AtomicInteger();
        private Vertex receiver;
        private int input;

        Link(int window) {
            this.window = window;
            this.credits = new AtomicInteger(window);
        }

        void connect(Vertex receiver, int input) {
            this.receiver = receiver;
            this.input = input;
        }

        @Override
        public boolean offer(byte[] chunk, int length) {
            if (credits.getAndUpdate(c -> c > 0 ? c - 1 : c) <= 0) {
                return false;
            }
            maxHeldPerLink.accumulateAndGet(window - credits.get(), Math::max);
            linkChunks.incrementAndGet();
            byte[] copy = Arrays.copyOf(chunk, length);
            receiver.onChunk(input, new InboundChunk(ByteBuffer.wrap(copy), () -> {
                // Poisoned on release, as a reused transport buffer would be: reading it after release corrupts.
                Arrays.fill(copy, (byte) 0xA5);
                if (credits.incrementAndGet() > window) {
                    throw new AssertionError("a chunk was released twice");
                }
                Runnable w = waiter.getAndSet(null);
                if (w != null) {
                    w.run();
                }
            }));
            return true;
        }

        @Override
        public void whenWritable(Runnable wake) {
            waiter.set(wake);
            if (credits.get() > 0) {
                Runnable w = waiter.getAndSet(null);
                if (w != null) {
                    w.run();
                }
            }
        }

        @Override
        public void end(EndOfStream end) {
            receiver.onEnd(input, EndOfStream.decode(end.encode()));
        }

        @Override
        public void fail(String reason) {
            receiver.fail("child failed: " + reason);
        }
    }

    /** The reduce task's end: collects the root's chunks; gated, it refuses them until opened. */
    static final class RootSink implements VertexOutput {
        final List<byte[]> chunks = new java.util.concurrent.CopyOnWriteArrayList<>();
        final CompletableFuture<EndOfStream> done = new CompletableFuture<>();
        final AtomicLong bytes = new AtomicLong();
        /** Completes with the root vertex's wake once it waits at the closed gate. */
        final CompletableFuture<Runnable> waiting = new CompletableFuture<>();
        private volatile boolean gated;

        RootSink(boolean gated) {
            this.gated = gated;
        }

        /** Lets chunks through from now on and wakes the root vertex if it waits. */
        void open() {
            gated = false;
            waiting.thenAccept(Runnable::run);
        }

        @Override
        public boolean offer(byte[] chunk, int length) {
            if (gated) {
                return false;
            }
            chunks.add(Arrays.copyOf(chunk, length));
            bytes.addAndGet(length);
            return true;
        }

        @Override
        public void whenWritable(Runnable wake) {
            if (gated) {
                waiting.complete(wake);
            } else {
                wake.run();
            }
        }

        @Override
        public void end(EndOfStream end) {
            done.complete(end);
        }

        @Override
        public void fail(String reason) {
            done.completeExceptionally(new IllegalStateException(reason));
        }
    }
}
