package org.camdoop.torus.transport.wire;

/**
 * Names one logical stream: the job, the reduce partition, the tree (0..5, or the service's own numbering) and the
 * vertex that sends it. Unique per direction on a server.
 */
public record StreamId(long job, int partition, int tree, int vertex) {

    public StreamId {
        if (tree < 0 || tree > 255) {
            throw new IllegalArgumentException("tree must fit in one byte (0..255), got " + tree);
        }
    }

    @Override
    public String toString() {
        return "stream(job=" + job + ",p=" + partition + ",t=" + tree + ",v=" + vertex + ")";
    }
}
