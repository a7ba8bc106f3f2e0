package org.camdoop.shuffle.service.plan;

/**
 * One stream of a shuffle: from the vertex {@code sendingVertex} in tree {@code tree}, hosted on server
 * {@code senderHost}, to its parent hosted on {@code receiverHost} (all server indices). Sender and receiver derive
 * the same edge independently, so they agree on the stream's identity without talking.
 */
public record StreamEdge(int tree, int sendingVertex, int senderHost, int receiverHost) {

    /** Whether both ends are on one server (the transport's local fast path). */
    public boolean local() {
        return senderHost == receiverHost;
    }
}
