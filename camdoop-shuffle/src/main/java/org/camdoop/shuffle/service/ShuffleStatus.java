package org.camdoop.shuffle.service;

/**
 * One running shuffle as this daemon sees it (for status pages): which reduce partition of which job, where its root
 * is, and how far this daemon's vertices of it have got; or, on its root, a shuffle paused for lost map outputs.
 *
 * @param jobId            the job
 * @param partition        the reduce partition (one shuffle per reduce task)
 * @param root             the root's coordinate, "x,y,z"
 * @param vertices         this daemon's vertices of the shuffle
 * @param verticesFinished those that have sent their end
 * @param verticesMerging  those merging (or draining) now; the rest wait for their inputs
 * @param waitingFor       on its root, for a paused shuffle: the map attempts whose outputs died with a server, for
 *                         whose maps' new attempts it waits ({@code docs/recovery.md}); empty otherwise
 */
public record ShuffleStatus(String jobId, int partition, String root, int vertices, int verticesFinished,
        int verticesMerging, java.util.List<String> waitingFor) {
    public ShuffleStatus {
        waitingFor = java.util.List.copyOf(waitingFor);
    }

    /** A shuffle with vertices running here. */
    public ShuffleStatus(String jobId, int partition, String root, int vertices, int verticesFinished,
            int verticesMerging) {
        this(jobId, partition, root, vertices, verticesFinished, verticesMerging, java.util.List.of());
    }
}
