package org.camdoop.shuffle.service;

/**
 * One running shuffle as this daemon sees it (for status pages): which reduce partition of which job, where its root
 * is, and how far this daemon's vertices of it have got.
 *
 * @param jobId            the job
 * @param partition        the reduce partition (one shuffle per reduce task)
 * @param root             the root's coordinate, "x,y,z"
 * @param vertices         this daemon's vertices of the shuffle
 * @param verticesFinished those that have sent their end
 * @param verticesMerging  those merging (or draining) now; the rest wait for their inputs
 */
public record ShuffleStatus(String jobId, int partition, String root, int vertices, int verticesFinished,
        int verticesMerging) {
}
