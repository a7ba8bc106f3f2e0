package org.camdoop.shuffle.service;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.net.StartProof;

/**
 * What a daemon remembers of recent shuffles, each memory bounded to the newest {@link #MAX_REMEMBERED}: which were
 * aborted and why (a START that arrives after its ABORT must not run, and its reducer learns the reason), which STARTs
 * it has taken (a START sent again after a lost ACK runs nothing twice), what each root's task proved (re-sent with
 * every START), and which vertices finished their part (a tree repair's cut of one has nothing left to cut).
 * Thread-safe: each memory is guarded by itself.
 */
final class RecentShuffles {
    static final int MAX_REMEMBERED = 4096;
    /** Longest abort reason kept: an ABORT on the wire carries no more either. */
    static final int MAX_REASON_CHARS = 2000;

    private final Map<ShuffleKey, String> aborted = bounded();
    private final Set<ShuffleKey> started = recentKeys();
    private final Map<ShuffleKey, StartProof> rootProofs = bounded();
    /** Per generation repaired (its key), the repair generation's spec: a late START of it runs only what is kept. */
    private final Map<ShuffleKey, ShuffleSpec> repairs = bounded();
    /** Per generation, the vertices (tree and vertex) that finished here with their output all sent. */
    private final Map<ShuffleKey, Set<Long>> doneVertices = bounded();

    private static Set<ShuffleKey> recentKeys() {
        return Collections.newSetFromMap(bounded());
    }

    private static <V> Map<ShuffleKey, V> bounded() {
        return new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<ShuffleKey, V> eldest) {
                return size() > MAX_REMEMBERED;
            }
        };
    }

    /**
     * The shuffle was aborted for {@code reason}: remember it (the first reason, the cause; later ones echo it), cut to
     * {@link #MAX_REASON_CHARS}, and forget what its root's task proved.
     */
    void aborted(ShuffleKey key, String reason) {
        synchronized (aborted) {
            aborted.putIfAbsent(key, reason.length() <= MAX_REASON_CHARS ? reason
                    : reason.substring(0, MAX_REASON_CHARS) + "...");
        }
        synchronized (rootProofs) {
            rootProofs.remove(key);
        }
    }

    boolean wasAborted(ShuffleKey key) {
        synchronized (aborted) {
            return aborted.containsKey(key);
        }
    }

    /** Why the shuffle was first aborted here, if it was (and is still remembered). */
    java.util.Optional<String> abortReason(ShuffleKey key) {
        synchronized (aborted) {
            return java.util.Optional.ofNullable(aborted.get(key));
        }
    }

    /** Takes the shuffle's START; false if it was taken before. */
    boolean takeStart(ShuffleKey key) {
        synchronized (started) {
            return started.add(key);
        }
    }

    /** Vertex {@code vertex} of tree {@code tree} finished its part of the generation here, done. */
    void vertexDone(ShuffleKey key, int tree, int vertex) {
        synchronized (doneVertices) {
            doneVertices.computeIfAbsent(key, k -> new java.util.HashSet<>()).add(treeVertex(tree, vertex));
        }
    }

    boolean wasDone(ShuffleKey key, int tree, int vertex) {
        synchronized (doneVertices) {
            return doneVertices.getOrDefault(key, Set.of()).contains(treeVertex(tree, vertex));
        }
    }

    private static long treeVertex(int tree, int vertex) {
        return ((long) tree << 32) | (vertex & 0xffffffffL);
    }

    /** Generation {@code repaired} of a shuffle is repaired by {@code repair} (a repair generation's spec). */
    void repaired(ShuffleKey repaired, ShuffleSpec repair) {
        synchronized (repairs) {
            repairs.put(repaired, repair);
        }
    }

    /** The repair generation of the generation {@code key} names, if one was started here. */
    java.util.Optional<ShuffleSpec> repairOf(ShuffleKey key) {
        synchronized (repairs) {
            return java.util.Optional.ofNullable(repairs.get(key));
        }
    }

    void proved(ShuffleKey key, StartProof proof) {
        synchronized (rootProofs) {
            rootProofs.put(key, proof);
        }
    }

    /** What the root's task proved for {@code key}; {@link StartProof#NONE} if nothing is remembered. */
    StartProof proofOf(ShuffleKey key) {
        synchronized (rootProofs) {
            return rootProofs.getOrDefault(key, StartProof.NONE);
        }
    }
}
