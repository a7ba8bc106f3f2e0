package org.camdoop.shuffle.service.vertex;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.camdoop.shuffle.aggregation.AggregationPipeline;
import org.camdoop.shuffle.aggregation.PumpOutcome;
import org.camdoop.shuffle.aggregation.SortedRun;
import org.camdoop.shuffle.aggregation.exactlyonce.ExactlyOnceReport;
import org.camdoop.shuffle.aggregation.exactlyonce.ExactlyOnceViolationException;
import org.camdoop.shuffle.protocol.EndOfStream;
import org.camdoop.shuffle.protocol.MapAttemptSummary;
import org.camdoop.shuffle.records.ChunkFifo;

/**
 * One vertex of one shuffle on one daemon (paper section 4.1): merges its children's streams with its slice of the
 * local map outputs, applies the combiner (camdoop mode), and streams the result to its parent, emitting a key only once
 * every input has passed it.
 *
 * <p>Threading: an actor. Other threads (the transport's event loop, the daemon) only append events to the mailbox and
 * {@link #schedule()}; all other state is touched only inside {@link #run()}, which never runs on two threads at once:
 * the {@code scheduled} flag is set before a run is submitted and cleared only at the run's end, and the executor's
 * hand-off orders one run's writes before the next run's reads, so the state needs no lock.
 */
public final class Vertex implements VertexInput {

    private sealed interface Event permits Started, Data, Ended, Failed, InputFailed, Cut, Wake, Sent, LocalData {
    }

    private record Started(List<SortedRun> localRuns, MapAttemptSummary local) implements Event {
    }

    /** A chunk of child {@code input}'s stream number {@code binding} (0: the one wired first; see ChildInputs). */
    private record Data(int input, InboundChunk chunk, int binding) implements Event {
    }

    private record Ended(int input, EndOfStream end, int binding) implements Event {
    }

    private record Failed(String reason) implements Event {
    }

    private record InputFailed(int input, String reason, int binding) implements Event {
    }

    /** A tree repair replaces {@code inputs}' streams by those numbered {@code binding}. */
    private record Cut(int[] inputs, int binding, Consumer<List<InputCut>> reply) implements Event {
    }

    private record Wake() implements Event {
    }

    /** What the output had queued has left: a partly filled chunk held back at a blocked merge may go now. */
    private record Sent() implements Event {
    }

    /** A local run that reported NO_DATA_YET may have data now (its shared decoder was let go); only causes a run. */
    private record LocalData() implements Event {
    }

    private final VertexContext context;
    private final String label;
    private final ConcurrentLinkedQueue<Event> mailbox = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    /** What {@link #schedule()} submits, made once: the vertex furthest behind runs first (VertexExecutor). */
    private final VertexRun run;

    // Owned by run().
    private VertexState state = VertexState.WAITING_FOR_INPUTS;
    private final ChildInputs children;
    private final ChunkFifo pendingChunks = new ChunkFifo();
    private AggregationPipeline pipeline;
    private MapAttemptSummary localAttempts;
    private int urgentChild = -1;
    private boolean waitingForCredit;
    /** A blocked merge holds a partly filled chunk until what the output had queued has left ({@link Sent}). */
    private boolean waitingForSent;
    private boolean yielded;
    private long linkBytesOut;
    private volatile VertexState published = VertexState.WAITING_FOR_INPUTS;
    /** The merge's frontier after the last run, for the executor's order (written by run(), read when scheduled). */
    private volatile long frontier;
    /** The input the merge blocked on in the current run, or -1 (owned by run()). */
    private int blockedOn = -1;
    /**
     * The input the merge waits for, published at the end of each run; -1 when it waits for nothing in particular. A
     * chunk on another child stream cannot move the merge, so it is queued without a run (see {@link #post}).
     */
    private volatile int awaited = -1;
    /** Records this vertex's own combining removed (its children's not counted), published when it finishes. */
    private volatile long combinedHere;
    /** When the current wait for credit began (owned by run()), and the waits' total, published when it finishes. */
    private long creditWaitStart;
    private long creditWaitNanos;
    private volatile long creditWaited;
    private final java.util.concurrent.CompletableFuture<VertexState> finished =
            new java.util.concurrent.CompletableFuture<>();

    public Vertex(VertexContext context, String coordLabel) {
        this.context = context;
        this.label = context.label(coordLabel);
        String shuffle = context.shuffle().jobId() + " p" + context.shuffle().partition() + " a"
                + context.shuffle().attempt();
        int depth = context.plan().level();
        this.run = VertexRun.of(shuffle, depth, () -> frontier, this::run);
        this.children = new ChildInputs(label, context.plan().inputs().size(),
                context.rebindable() ? Optional.of(context.aggregation().sortComparator()) : Optional.empty(),
                context.rebindHeldBytes());
    }

    /** The state as last published by the vertex's thread (for status pages and tests). */
    public VertexState state() {
        return published;
    }

    public String label() {
        return label;
    }

    public org.camdoop.shuffle.service.plan.VertexPlan plan() {
        return context.plan();
    }

    /** Nanoseconds this vertex waited for its output's credit (0 until it finishes). */
    public long creditWaitedNanos() {
        return creditWaited;
    }

    /** Records this vertex combined away itself (0 until it finishes; its children count their own). */
    public long recordsCombinedHere() {
        return combinedHere;
    }

    /** Completes with DONE or FAILED once the vertex has sent its end (or its failure). */
    public java.util.concurrent.CompletionStage<VertexState> finished() {
        return finished;
    }

    /** Starts merging with the runs over this server's local map outputs (already striped) and their attempts. */
    public void start(List<SortedRun> localRuns, MapAttemptSummary local) {
        post(new Started(List.copyOf(localRuns), local));
    }

    /** A chunk arrived on child stream {@code input} (any thread). */
    @Override
    public void onChunk(int input, InboundChunk chunk) {
        post(new Data(input, chunk, 0));
    }

    /** Child stream {@code input} ended (any thread). */
    @Override
    public void onEnd(int input, EndOfStream end) {
        post(new Ended(input, end, 0));
    }

    /** Child stream {@code input} failed (any thread). */
    @Override
    public void failInput(int input, String reason) {
        post(new InputFailed(input, reason, 0));
    }

    /**
     * Child {@code input}'s sender died holding nothing for this shuffle (a failed server's leaf vertex, which sends
     * only its end, at once): the input ends as that end would have, with no records and no map attempts, unless its
     * end came already (any thread).
     */
    public void endVanished(int input) {
        post(new Ended(input, new EndOfStream(MapAttemptSummary.of("vanished", List.of()), 0, 0), 0));
    }

    /** Whether a tree repair may replace this vertex's input streams ({@link VertexContext#rebindable()}). */
    public boolean rebindable() {
        return context.rebindable();
    }

    /**
     * A tree repair replaces the streams of {@code inputs} by its own, numbered {@code binding} (any thread; only on
     * a vertex wired {@link VertexContext#rebindable()}). {@code reply} gets, on the vertex's thread, where each
     * input stands: the key its replacing stream must resume after, or that it ended already.
     */
    public void cut(int[] inputs, int binding, Consumer<List<InputCut>> reply) {
        post(new Cut(inputs.clone(), binding, reply));
    }

    /**
     * The events of a child stream numbered {@code binding}, for the repair that opens it; its failure goes to
     * {@code failed} (any thread), not to this vertex.
     */
    public VertexInput rebound(int binding, Consumer<String> failed) {
        return new ReboundInput(this, binding, failed);
    }

    /** Events of a child stream, numbered {@code binding} (0: the one wired first); any thread. */
    void chunkOn(int input, InboundChunk chunk, int binding) {
        post(new Data(input, chunk, binding));
    }

    void endOn(int input, EndOfStream end, int binding) {
        post(new Ended(input, end, binding));
    }

    /**
     * A local run that reported {@code NO_DATA_YET} may now have data (any thread). An event, not a bare
     * {@link #schedule()}: a wake arriving while the vertex runs must cause one more run after it.
     */
    public void onLocalData() {
        post(new LocalData());
    }

    /** Gives up: an input failed, or the shuffle was aborted (any thread). */
    @Override
    public void fail(String reason) {
        post(new Failed(reason));
    }

    private void post(Event e) {
        mailbox.add(e);
        // A merge blocked on input k cannot move for a chunk on another child: running now would only queue it and
        // block again. The chunk waits in the mailbox for the run k's data (or any other event) causes. No chunk is
        // stranded: run() publishes awaited before it checks the mailbox, both are volatile, and this thread adds to
        // the mailbox before it reads awaited, so either this post sees the new value or that check sees the chunk.
        int waitingFor = awaited;
        if (e instanceof Data d && waitingFor >= 0 && d.input() != waitingFor) {
            return;
        }
        schedule();
    }

    /** Asks the executor to run the vertex, unless it is already queued to. */
    public void schedule() {
        if (scheduled.compareAndSet(false, true)) {
            context.executor().execute(run);
        }
    }

    private void run() {
        yielded = false;
        blockedOn = -1;
        try {
            for (Event e; (e = mailbox.poll()) != null; ) {
                handle(e);
            }
            if (state == VertexState.MERGING || state == VertexState.DRAINING) {
                advance();
            }
        } catch (IOException | RuntimeException e) {
            failNow(e.getMessage() == null ? e.toString() : e.getMessage());
        }
        published = state;
        if (pipeline != null) {
            frontier = pipeline.frontier();
        }
        awaited = state == VertexState.MERGING ? blockedOn : -1;
        // Cleared last, then re-checked: an event posted while we ran found the flag set and did not schedule, so we
        // must; one posted after the check finds the flag clear and schedules itself. Never two runs at once.
        scheduled.set(false);
        if (yielded || !mailbox.isEmpty()) {
            schedule();
        }
    }

    private void handle(Event e) throws IOException {
        if (e instanceof Started s) {
            if (state != VertexState.WAITING_FOR_INPUTS) {
                // Failed (e.g. aborted) before it could start: the runs' files are ours to close.
                for (SortedRun run : s.localRuns()) {
                    run.close();
                }
                return;
            }
            localAttempts = s.local();
            List<SortedRun> inputs = new ArrayList<>(children.runs());
            inputs.addAll(s.localRuns());
            pipeline = AggregationPipeline.open(context.aggregation(), inputs, this::emit);
            state = VertexState.MERGING;
        } else if (e instanceof Data d) {
            if (state == VertexState.DONE || state == VertexState.FAILED) {
                d.chunk().release().run();
                return;
            }
            children.chunk(d.input(), d.binding(), d.chunk());
        } else if (e instanceof Ended end) {
            children.end(end.input(), end.binding(), end.end());
        } else if (e instanceof Failed f) {
            failNow(f.reason());
        } else if (e instanceof InputFailed f) {
            if (children.takes(f.input(), f.binding())) {
                failNow(f.reason()); // a replaced stream's failure is no longer this vertex's concern
            }
        } else if (e instanceof Cut c) {
            List<InputCut> points = new ArrayList<>(c.inputs().length);
            if (state != VertexState.DONE && state != VertexState.FAILED) {
                for (int input : c.inputs()) {
                    points.add(children.cut(input, c.binding()));
                }
            }
            c.reply().accept(points); // empty: the vertex is done or failed, nothing to repair

        } else if (e instanceof Wake) {
            if (waitingForCredit) {
                creditWaitNanos += context.nanoClock().getAsLong() - creditWaitStart;
            }
            waitingForCredit = false;
        } else if (e instanceof Sent) {
            waitingForSent = false;
        } else if (e instanceof LocalData) {
            // nothing to record: the run this event causes retries the merge
        }
    }

    private void advance() throws IOException, ExactlyOnceViolationException {
        while (true) {
            if (!flushPending()) {
                return;
            }
            if (state == VertexState.DRAINING) {
                finish();
                return;
            }
            PumpOutcome outcome = pipeline.pump(context.pumpRecords(), false);
            releaseConsumed();
            switch (outcome) {
                case BLOCKED -> {
                    blockedOn = pipeline.blockedInput();
                    markUrgent(blockedOn);
                    // A partly filled chunk goes only once nothing of ours waits to leave: behind queued chunks it
                    // would arrive no sooner, and more records may fill it meanwhile (fewer, fuller frames). The
                    // full chunks this pump made are offered first, so the output's answer counts them.
                    flushPending();
                    if (pendingChunks.isEmpty() && !context.output().hasUnsent()) {
                        pipeline.flushPartial();
                        flushPending();
                    } else if (!waitingForSent) {
                        waitingForSent = true;
                        context.output().whenSent(() -> post(new Sent()));
                    }
                    return;
                }
                case BUDGET_USED -> {
                    // Yield the thread (other vertices share the executor) unless we now wait for credit.
                    yielded = flushPending();
                    return;
                }
                case FINISHED -> state = VertexState.DRAINING;
                default -> throw new AssertionError(outcome);
            }
        }
    }

    /** The pipeline's chunk sink: straight to the output while it has credit, queued (bounded by one pump) otherwise. */
    private void emit(byte[] chunk, int length) {
        pendingChunks.add(chunk, length);
    }

    private boolean flushPending() {
        while (!pendingChunks.isEmpty()) {
            if (waitingForCredit) {
                return false;
            }
            int length = pendingChunks.peekLength();
            if (!context.output().offer(pendingChunks.peekChunk(), length)) {
                waitingForCredit = true;
                creditWaitStart = context.nanoClock().getAsLong();
                context.output().whenWritable(() -> post(new Wake()));
                return false;
            }
            pendingChunks.remove();
            context.plan().output().filter(e -> !e.local()).ifPresent(e -> linkBytesOut += length);
        }
        return true;
    }

    private void releaseConsumed() {
        children.releaseConsumed(pipeline.blockedInput());
    }

    private void markUrgent(int input) {
        int child = input < children.size() ? input : -1;
        if (child == urgentChild) {
            return;
        }
        if (urgentChild >= 0) {
            context.urgency().urgent(urgentChild, false);
        }
        if (child >= 0) {
            context.urgency().urgent(child, true);
        }
        urgentChild = child;
    }

    private void finish() throws IOException, ExactlyOnceViolationException {
        markUrgent(-1);
        List<MapAttemptSummary> parts = new ArrayList<>();
        long combined = pipeline.counters().recordsIn() - pipeline.counters().recordsOut();
        combinedHere = combined;
        creditWaited = creditWaitNanos;
        long linkBytes = linkBytesOut;
        EndOfStream[] childEnds = children.ends();
        for (EndOfStream end : childEnds) {
            parts.add(end.attempts());
            combined += end.recordsCombined();
            linkBytes += end.linkBytes();
        }
        parts.add(localAttempts);
        MapAttemptSummary all;
        if (context.plan().isRoot()) {
            // Every tree carries a stripe of every map output, so the trees overlap by design: check each tree.
            RootCheck.verify(context.shuffle(), context.plan(), List.of(childEnds), localAttempts);
            all = MapAttemptSummary.of(label, context.shuffle().expectedAttempts());
        } else {
            all = ExactlyOnceReport.union(label, context.shuffle().partition(), parts);
        }
        closePipeline();
        state = VertexState.DONE;
        published = state;
        try {
            context.output().end(new EndOfStream(all, combined, linkBytes));
        } finally {
            // Even if the output refuses the end (its stream was closed under us), the vertex is finished.
            finished.complete(state);
        }
    }

    private void failNow(String reason) {
        if (state == VertexState.DONE || state == VertexState.FAILED) {
            return;
        }
        state = VertexState.FAILED;
        children.releaseAll();
        try {
            closePipeline();
        } catch (IOException suppressed) {
            // The failure we report is the first one; closing is best effort.
        }
        published = state;
        context.output().fail(label + ": " + reason);
        finished.complete(state);
    }

    private void closePipeline() throws IOException {
        if (pipeline != null) {
            pipeline.close();
        }
    }
}
