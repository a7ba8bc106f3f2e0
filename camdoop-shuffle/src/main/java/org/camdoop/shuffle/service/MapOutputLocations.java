package org.camdoop.shuffle.service;

import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.net.ShuffleMessages;
import org.camdoop.shuffle.service.net.StartProof;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.wire.StreamId;

/**
 * Where a rooted shuffle's map outputs are, as the daemons holding them reported (HELD, one report per START a daemon
 * takes, naming what it holds of the shuffle's map outputs, if anything; the root's own outputs it looks up itself).
 * It tells the root which outputs die with a server, so the shuffle can wait for their maps to run again instead of
 * reading on without them; and which servers have not reported yet, so that a server dying before its report is
 * noticed (docs/recovery.md, "Lost map outputs").
 *
 * <p>Not thread-safe: guarded by its {@link RootedShuffles.Rooted}'s monitor.
 */
final class MapOutputLocations {

    /** Server index per map attempt of the shuffle's current set; absent: not reported yet. */
    private final Map<String, Integer> serverOf = new HashMap<>();
    /**
     * The set {@link #sorted} lists, by identity: each generation's spec carries its own copy, so the reporters are
     * counted per generation (every daemon reports on each START it takes), while where an attempt is stays known.
     */
    private SortedSet<String> indexedSet;
    private List<String> sorted = List.of();
    /** The servers that reported on the current generation (every daemon reports on each START it takes). */
    private final java.util.Set<Integer> reporters = new java.util.HashSet<>();
    /**
     * Per server, the run of its daemon whose report placed what {@link #serverOf} says it holds
     * ({@link ShuffleMessages.Held#UNKNOWN_RUN} from a daemon that does not say).
     */
    private final Map<Integer, Long> reportingRun = new HashMap<>();

    /**
     * Records that run {@code run} of server {@code server} holds the outputs at {@code indices} of {@code attempts}
     * (sorted, as the START listed them); indices past the end are ignored (a report of another set than the one
     * given).
     */
    void held(int server, long run, SortedSet<String> attempts, int[] indices) {
        if (attempts != indexedSet) { // once per set, not per report
            indexedSet = attempts;
            sorted = new ArrayList<>(attempts);
            reporters.clear();
        }
        reporters.add(server);
        reportingRun.put(server, run);
        // A report is the whole of what the server holds: outputs it no longer names are not there (a new run of its
        // daemon holds none of the old one's).
        serverOf.values().removeIf(s -> s == server);
        for (int i : indices) {
            if (i >= 0 && i < sorted.size()) {
                serverOf.put(sorted.get(i), server);
            }
        }
    }

    /** The map attempts of {@code attempts} reported held by {@code server}: lost when it fails. */
    SortedSet<String> heldBy(int server, SortedSet<String> attempts) {
        SortedSet<String> on = new TreeSet<>();
        for (String a : attempts) {
            Integer s = serverOf.get(a);
            if (s != null && s == server) {
                on.add(a);
            }
        }
        return on;
    }

    /**
     * The map attempts of {@code attempts} that died with run {@code run} of {@code server}: what it was reported to
     * hold, unless a later run of it reported that (a stale failure report: the run that holds them is not the one
     * that ended).
     */
    SortedSet<String> diedWith(int server, long run, SortedSet<String> attempts) {
        return reportedByLaterRun(server, run) ? new TreeSet<>() : heldBy(server, attempts);
    }

    /**
     * Whether {@code server}'s report on the current set came from a run of its daemon later than {@code run} (false
     * if not reported, or from a daemon that does not say its run).
     */
    boolean reportedAfter(int server, long run) {
        return reporters.contains(server) && reportedByLaterRun(server, run);
    }

    /**
     * Whether run {@code run} of {@code server} reported on the current set (or the server did, not saying its run): if
     * not, that run may have held outputs nobody knows of.
     */
    boolean reportedBy(int server, long run) {
        long by = reportingRun.getOrDefault(server, ShuffleMessages.Held.UNKNOWN_RUN);
        return reporters.contains(server) && (by == run || by == ShuffleMessages.Held.UNKNOWN_RUN);
    }

    /** Whether the report the root holds of {@code server}, of any set, came from a run later than {@code run}. */
    boolean reportedByLaterRun(int server, long run) {
        return reportingRun.getOrDefault(server, ShuffleMessages.Held.UNKNOWN_RUN) > run;
    }

    /** Whether {@code server} reported what it holds of the current set (possibly nothing). */
    boolean reported(int server) {
        return reporters.contains(server);
    }

    /** The attempts of {@code attempts} that no server {@code live} was reported to hold. */
    SortedSet<String> heldByNone(SortedSet<String> attempts, java.util.function.IntPredicate live) {
        SortedSet<String> out = new TreeSet<>();
        for (String a : attempts) {
            Integer s = serverOf.get(a);
            if (s == null || !live.test(s)) {
                out.add(a);
            }
        }
        return out;
    }

    /** Forgets where the attempts in {@code gone} were (their replacements report anew). */
    void forget(Iterable<String> gone) {
        gone.forEach(serverOf::remove);
    }

    /**
     * Tells {@code spec}'s root which of its map outputs {@code catalog} has on {@code node}'s server (HELD), and
     * which run of this daemon says so.
     */
    static void report(TorusNode node, MapOutputCatalog catalog, ShuffleSpec spec) {
        StreamId control = new StreamId(spec.streamKey(), spec.partition(), ControlTrees.CONTROL, node.index());
        node.sendService(spec.root(), control, Unpooled.wrappedBuffer(ShuffleMessages.held(spec.streamKey(),
                spec.partition(), indicesHeld(catalog, spec), node.incarnation())));
    }

    /**
     * Asks {@code servers} again what they hold of {@code spec}'s map outputs, from its root: sends START again with
     * the reduce task's {@code proof} (the generation's own was forgotten with its abort; a daemon answers every START
     * it accepts with HELD), and its ABORT again (one that missed the START likely missed that too, and must not run
     * the generation).
     */
    static void ask(TorusNode node, ShuffleSpec spec, StartProof proof, java.util.Set<Integer> servers) {
        StreamId control = new StreamId(spec.streamKey(), spec.partition(), ControlTrees.CONTROL, node.index());
        byte[] start = ShuffleMessages.start(spec, proof);
        byte[] abort = ShuffleMessages.abort(spec.streamKey(), spec.partition(), "stopped by its root");
        for (int s : servers) {
            org.camdoop.torus.topology.Coord to = node.shape().coord(s);
            node.sendService(to, control, Unpooled.wrappedBuffer(start));
            node.sendService(to, control, Unpooled.wrappedBuffer(abort));
        }
    }

    /**
     * The indices, in {@code spec}'s sorted map attempts, of those whose outputs {@code catalog} has on this server:
     * what a HELD report names.
     */
    static int[] indicesHeld(MapOutputCatalog catalog, ShuffleSpec spec) {
        java.util.Set<String> here = new java.util.HashSet<>();
        catalog.outputsOf(spec.jobId()).forEach(o -> here.add(o.attemptId()));
        int[] out = new int[Math.min(here.size(), spec.expectedAttempts().size())];
        int n = 0;
        int i = 0;
        for (String a : spec.expectedAttempts()) {
            if (n < out.length && here.contains(a)) {
                out[n++] = i;
            }
            i++;
        }
        return java.util.Arrays.copyOf(out, n);
    }
}
