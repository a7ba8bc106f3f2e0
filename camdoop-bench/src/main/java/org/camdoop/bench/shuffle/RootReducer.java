package org.camdoop.bench.shuffle;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import org.camdoop.shuffle.aggregation.Advance;
import org.camdoop.shuffle.aggregation.ChunkQueueRun;
import org.camdoop.shuffle.protocol.EndOfStream;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.records.RawBytes;
import org.camdoop.shuffle.service.RootStream;

/**
 * The reduce task of one partition: drains its root stream, sums the IntWritable values of consecutive equal keys
 * (the stream is sorted, but in noagg and direct modes, and for keys arriving both on a tree and from the root's own
 * map output, not fully combined) and keeps the result for the digest. Runs on its own thread ({@link #run}); the
 * others read its results only after joining that thread, except {@link RootStream#bytesDelivered()}.
 */
final class RootReducer implements Runnable {

    /** How a reducer ended. */
    sealed interface Outcome permits Ended, Failed {
    }

    /** The stream ended at {@code endNanos} (System.nanoTime) with the root's end-of-stream summary. */
    record Ended(EndOfStream end, long endNanos) implements Outcome {
    }

    /** The shuffle failed, or the stream stalled longer than the reducer waits. */
    record Failed(String reason) implements Outcome {
    }

    private final int partition;
    private final RootStream stream;
    private final Duration stallLimit;
    private final ChunkQueueRun run;
    private final ReducedOutput output = new ReducedOutput();
    // The key being summed (a copy: the run's key bytes move on) and its running sum; owned by the reducer thread.
    private byte[] currentKey;
    private int currentLength;
    private int currentSum;
    private Outcome outcome;
    /** System.nanoTime of the first chunk, 0 before one arrived; owned by the reducer thread. */
    private long firstChunkNanos;

    RootReducer(int partition, RootStream stream, Duration stallLimit) {
        this.partition = partition;
        this.stream = stream;
        this.stallLimit = stallLimit;
        this.run = new ChunkQueueRun("root of partition " + partition);
    }

    /** The root stream it drains; others may read only {@link RootStream#bytesDelivered()} while it runs. */
    RootStream stream() {
        return stream;
    }

    @Override
    public void run() {
        try {
            outcome = consume();
        } catch (IOException | RuntimeException e) {
            outcome = new Failed("partition " + partition + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome = new Failed("partition " + partition + ": interrupted");
        }
    }

    private Outcome consume() throws IOException, InterruptedException {
        while (true) {
            StreamItem next = stream.next(stallLimit);
            if (next instanceof StreamItem.Chunk chunk) {
                if (firstChunkNanos == 0) {
                    firstChunkNanos = System.nanoTime();
                }
                run.offer(chunk.bytes(), chunk.length());
                reduceAvailable();
            } else if (next instanceof StreamItem.End end) {
                long endNanos = System.nanoTime();
                run.finish();
                reduceAvailable();
                if (currentKey != null) {
                    output.add(currentKey, 0, currentLength, currentSum);
                }
                return new Ended(end.end(), endNanos);
            } else if (next instanceof StreamItem.Failed failed) {
                return new Failed("partition " + partition + ": " + failed.reason());
            } else if (next instanceof StreamItem.Paused paused) {
                // The benchmarks keep map outputs off the servers they fail: no new attempts would come.
                return new Failed("partition " + partition + ": lost the outputs of map attempts " + paused.lost());
            } else {
                return new Failed("partition " + partition + ": no data for " + stallLimit.toSeconds() + " s");
            }
        }
    }

    private void reduceAvailable() throws IOException {
        while (run.advance() == Advance.RECORD) {
            RawBytes key = run.key();
            RawBytes value = run.value();
            if (value.length() != Integer.BYTES) {
                throw new IOException("a value of " + value.length() + " bytes is not an IntWritable");
            }
            int count = readInt(value.array(), value.offset());
            if (currentKey != null && sameKey(key)) {
                currentSum += count;
                continue;
            }
            if (currentKey != null) {
                output.add(currentKey, 0, currentLength, currentSum);
            }
            if (currentKey == null || currentKey.length < key.length()) {
                currentKey = new byte[Math.max(64, key.length())];
            }
            System.arraycopy(key.array(), key.offset(), currentKey, 0, key.length());
            currentLength = key.length();
            currentSum = count;
        }
    }

    private boolean sameKey(RawBytes key) {
        return Arrays.equals(currentKey, 0, currentLength, key.array(), key.offset(), key.offset() + key.length());
    }

    private static int readInt(byte[] b, int at) {
        return ((b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
    }

    int partition() {
        return partition;
    }

    /** Bytes the root stream delivered so far; safe from any thread. */
    long bytesDelivered() {
        return stream.bytesDelivered();
    }

    /** System.nanoTime at which the first chunk arrived, or 0 if none did. Read after joining. */
    long firstChunkNanos() {
        return firstChunkNanos;
    }

    /** How it ended; empty until {@link #run} returned. Read after joining the reducer's thread. */
    Optional<Outcome> outcome() {
        return Optional.ofNullable(outcome);
    }

    /** The reduced records; complete once {@link #outcome()} is {@link Ended}. Read after joining. */
    ReducedOutput output() {
        return output;
    }
}
