package org.camdoop.shuffle.service;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.net.StartProof;
import org.camdoop.shuffle.service.vertex.VertexOutput;

/**
 * The shuffles whose root is this daemon, each by its first generation's key: the reducer's stream and the generation
 * feeding it now. An entry lives from the shuffle's start until its current generation's root vertex finished or the
 * shuffle was aborted, so there is at most one per reduce task this daemon serves.
 *
 * <p>Thread-safety: the map is concurrent; a {@link Rooted}'s fields are guarded by its own monitor, held while a
 * generation is replaced (restarts of one shuffle never interleave).
 */
final class RootedShuffles {

    /** One shuffle rooted here. */
    static final class Rooted {
        final RootStream stream;
        /**
         * What the reduce task proved to this daemon: every generation's START carries it (kept here, not only by
         * stream key, because aborting a generation forgets what was proved for its key). A resume with new map
         * attempts brings a proof over them.
         */
        StartProof proof;
        /** The generation running now. */
        volatile ShuffleSpec spec;
        /** The current generation's root output: a {@link GenerationOutput}, or the stream for an unknown job. */
        VertexOutput output;
        /**
         * Per server, the latest run of its daemon known here to have connected before the current generation was
         * planned ({@link DaemonView#knownRuns}): the news that an earlier run ended concerns nothing of it.
         */
        long[] plannedWith;
        /** Which server holds which of the map outputs, as reported. */
        final MapOutputLocations locations = new MapOutputLocations();
        /** While paused: the map attempts whose new attempts the reduce task is to name; null while not paused. */
        java.util.SortedSet<String> pausedFor;
        /** While paused: where the next generation resumes (after the last key the reducer holds). */
        java.util.Optional<byte[]> pausedAfter = java.util.Optional.empty();
        /** Outputs lost while paused, beyond {@link #pausedFor}: the shuffle pauses for them once resumed. */
        final java.util.SortedSet<String> lostWhilePaused = new java.util.TreeSet<>();
        /**
         * While the root waits to learn which outputs a server that died before its report held: the live servers
         * whose reports are still to come; null otherwise. Nothing runs meanwhile, and nothing had been delivered.
         */
        java.util.Set<Integer> awaitingReports;
        /**
         * Whether the shuffle paused once already for outputs no live server holds once all had reported: it does so
         * once at most (a re-run no daemon holds either fails the attempt at the end instead).
         */
        boolean pausedForUnheld;
        /** The repair generation running beside {@link #spec} (TreeRepairs), or null. */
        volatile ShuffleSpec repair;
        /** The last repair generation started beside {@link #spec}, aborted or not: the next is numbered after it. */
        ShuffleSpec lastRepair;
        /** A tree repair's cuts under way (TreeRepairs), or null. */
        RepairCuts cuts;
        /** The server whose failure the repair answers, and that run of it: news of it again changes nothing. */
        int repairedServer = -1;
        long repairedRun;

        /** Paused for the reduce task, or waiting for reports: nothing of it reaches the reducer meanwhile. */
        boolean waiting() {
            return pausedFor != null || awaitingReports != null;
        }

        Rooted(RootStream stream, StartProof proof, ShuffleSpec spec, VertexOutput output, long[] plannedWith) {
            this.stream = stream;
            this.proof = proof;
            this.spec = spec;
            this.output = output;
            this.plannedWith = plannedWith;
        }

        /**
         * Whether the current generation may have had vertices on run {@code incarnation} of server {@code server}:
         * not if it was planned without the server, or after a later run of it had connected.
         */
        boolean mayHaveRunOn(int server, long incarnation) {
            if (server == repairedServer && incarnation <= repairedRun) {
                return false; // repaired (or being repaired) already
            }
            return plannedWith[server] <= incarnation
                    && java.util.Arrays.stream(spec.generation().failed()).noneMatch(f -> f == server);
        }
    }

    private final Map<ShuffleKey, Rooted> rooted = new ConcurrentHashMap<>();

    static ShuffleKey keyOf(ShuffleSpec spec) {
        return new ShuffleKey(spec.streamKey(0), spec.partition());
    }

    void add(Rooted r) {
        rooted.put(keyOf(r.spec), r);
    }

    /** The shuffle that {@code spec} (any generation of it) belongs to, if it is rooted here. */
    Rooted get(ShuffleSpec spec) {
        return rooted.get(keyOf(spec));
    }

    /** Forgets the shuffle {@code spec} belongs to; returns it, or null. */
    Rooted remove(ShuffleSpec spec) {
        return rooted.remove(keyOf(spec));
    }

    /**
     * Forgets the shuffle if {@code finished} is still its current generation (a restart replaced it otherwise) and
     * the shuffle is not waiting (paused: its generation, aborted, finished, and the next one awaits the reduce task's
     * resume; or waiting for the reports of which map outputs each server holds).
     */
    void finished(ShuffleSpec finished) {
        Rooted r = rooted.get(keyOf(finished));
        if (r != null) {
            synchronized (r) {
                if (r.spec.equals(finished) && !r.waiting()) {
                    rooted.remove(keyOf(finished), r);
                }
            }
        }
    }

    /**
     * The shuffle rooted here whose current generation has this stream key and partition, or null; without taking
     * any shuffle's monitor ({@code spec} is volatile), so a launch under way elsewhere does not hold it up. The
     * caller checks again under the monitor.
     */
    Rooted current(long streamKey, int partition) {
        for (Rooted r : rooted.values()) {
            ShuffleSpec now = r.spec;
            if (now.streamKey() == streamKey && now.partition() == partition) {
                return r;
            }
        }
        return null;
    }

    List<Rooted> all() {
        return List.copyOf(rooted.values());
    }

    /** The shuffles rooted here that wait, paused, for new attempts of lost map outputs (status pages). */
    List<ShuffleStatus> paused() {
        List<ShuffleStatus> out = new java.util.ArrayList<>();
        for (Rooted r : all()) {
            synchronized (r) {
                if (r.pausedFor != null) {
                    out.add(new ShuffleStatus(r.spec.jobId(), r.spec.partition(), r.spec.root().toString(), 0, 0, 0,
                            List.copyOf(r.pausedFor)));
                }
            }
        }
        return out;
    }

    /** The attempts of the shuffle rooted here that {@code shuffle} belongs to, now; empty if none is. */
    java.util.Optional<ShuffleSpec> current(ShuffleSpec shuffle) {
        Rooted r = get(shuffle);
        if (r == null) {
            return java.util.Optional.empty();
        }
        synchronized (r) {
            return java.util.Optional.of(r.spec);
        }
    }
}
