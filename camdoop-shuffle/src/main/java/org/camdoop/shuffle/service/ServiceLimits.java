package org.camdoop.shuffle.service;

/**
 * Bounds on what peers can make the service hold (the daemon reads them from {@code camdoop-site.xml}).
 *
 * @param maxRecordBytes     the longest chunk (one huge record) a vertex input reassembles from pieces
 * @param maxPendingMessages service messages from peers received and not yet handled; beyond it they are dropped
 *                           (service messages are best effort: the root re-sends an unacknowledged START)
 * @param readaheadBytes     local map output records decoded ahead for lagging trees, shared by all shuffles (see
 *                           {@link org.camdoop.shuffle.aggregation.ReadaheadPool}); 0 holds each tree to its own bound
 */
public record ServiceLimits(long maxRecordBytes, int maxPendingMessages, long readaheadBytes) {

    public static final long DEFAULT_MAX_RECORD_BYTES = 64L * 1024 * 1024;
    public static final int DEFAULT_MAX_PENDING_MESSAGES = 4096;
    public static final long DEFAULT_READAHEAD_BYTES = 32L * 1024 * 1024;
    public static final ServiceLimits DEFAULT = new ServiceLimits(DEFAULT_MAX_RECORD_BYTES,
            DEFAULT_MAX_PENDING_MESSAGES, DEFAULT_READAHEAD_BYTES);

    public ServiceLimits {
        if (maxRecordBytes <= 0 || maxPendingMessages <= 0) {
            throw new IllegalArgumentException("service limits must be positive");
        }
        if (readaheadBytes < 0) {
            throw new IllegalArgumentException("read-ahead bytes must not be negative: " + readaheadBytes);
        }
    }
}
