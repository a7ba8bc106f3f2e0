package org.camdoop.shuffle.hadoop;

import java.io.IOException;
import java.util.Collection;
import java.util.SortedMap;
import java.util.function.LongSupplier;
import org.camdoop.shuffle.protocol.StreamItem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reduce side's part when map outputs die with a server (docs/recovery.md, lost map outputs): it reports them lost
 * to the ApplicationMaster ({@link LostMapOutputs}), which runs those maps again, and, where the shuffle may resume,
 * waits for the new attempts in the map completion events and names them to the daemon. A shuffle may resume after
 * the last key the reducer holds only when the job says its maps are deterministic
 * ({@link CamdoopJobConfig#DETERMINISTIC_MAPS}): a new attempt of another map's code could write other records for
 * those keys. One that delivered nothing yet resumes in any case, from the start. Otherwise the attempt fails, and its
 * retry shuffles from the start. Not thread-safe: the reduce task's thread.
 */
final class LostMapRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(LostMapRecovery.class);

    /** Waits for the new attempts of lost map outputs' maps. */
    @FunctionalInterface
    interface NewAttempts {
        /** Each lost attempt's replacement once all have one; null if {@code waitMs} passed first. */
        SortedMap<String, String> await(Collection<String> lost, long waitMs) throws IOException, InterruptedException;
    }

    /**
     * While it waits, the task reports the loss again this often: an ApplicationMaster that restarted forgot the
     * reports (it recovers the lost attempt as succeeded), and a status update can be lost; the stock shuffle reports
     * again at every failed copy.
     */
    static final long REPORT_AGAIN_MS = 60_000;

    private final LostMapOutputs reporter;
    private final boolean deterministic;
    private final NewAttempts newAttempts;
    private final LongSupplier nanoClock;

    LostMapRecovery(LostMapOutputs reporter, boolean deterministic, NewAttempts newAttempts, LongSupplier nanoClock) {
        this.reporter = reporter;
        this.deterministic = deterministic;
        this.newAttempts = newAttempts;
        this.nanoClock = nanoClock;
    }

    /** The shuffle failed with {@code reason}: reports the map outputs it names missing. */
    void failed(String reason) {
        reporter.report(reason);
    }

    /**
     * The shuffle paused after {@code records} records reached the reducer: reports the lost outputs and returns the
     * new attempts to resume with.
     *
     * @throws IOException why the shuffle cannot resume (the attempt then fails)
     */
    SortedMap<String, String> replacements(StreamItem.Paused paused, long records) throws IOException {
        long reportStart = nanoClock.getAsLong();
        reporter.report(paused.lost());
        if (records > 0 && !deterministic) {
            throw new IOException("the outputs of map attempts " + paused.lost() + " were lost, and "
                    + CamdoopJobConfig.DETERMINISTIC_MAPS + " is false, so the shuffle cannot resume after the last key"
                    + " the reducer holds: the re-run maps may write other records");
        }
        // The daemon's wait began before the report: the rest of it is what is left here.
        long deadline = reportStart + paused.waitMs() * 1_000_000L;
        LOG.info("the outputs of map attempts {} were lost; waiting up to {} ms for their maps to run again",
                paused.lost(), (deadline - nanoClock.getAsLong()) / 1_000_000L);
        SortedMap<String, String> next = null;
        try {
            for (long leftMs = (deadline - nanoClock.getAsLong()) / 1_000_000L; leftMs > 0;
                    leftMs = (deadline - nanoClock.getAsLong()) / 1_000_000L) {
                next = newAttempts.await(paused.lost(), Math.min(leftMs, REPORT_AGAIN_MS));
                if (next != null || deadline - nanoClock.getAsLong() <= 0) {
                    break;
                }
                reporter.report(paused.lost());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for new attempts of " + paused.lost(), e);
        }
        if (next == null) {
            throw new IOException("no new attempts of the maps of " + paused.lost() + " succeeded within "
                    + paused.waitMs() + " ms, the daemon's pause timeout");
        }
        LOG.info("resuming the shuffle with map attempts {} in place of {}", next.values(), next.keySet());
        return next;
    }
}
