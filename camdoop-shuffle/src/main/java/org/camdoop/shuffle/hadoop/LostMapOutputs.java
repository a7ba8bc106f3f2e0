package org.camdoop.shuffle.hadoop;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskStatus;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.camdoop.shuffle.protocol.MissingMapAttempts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the ApplicationMaster about map outputs the torus lost, as the stock shuffle's scheduler does for outputs it
 * cannot fetch, so Hadoop runs those maps again. A shuffle whose root found map attempts missing at its end (their
 * outputs died with a server: a restarted generation cannot read them) fails with a reason naming them
 * ({@link MissingMapAttempts}). Each goes into the task's status as a fetch failure, and the status is sent
 * {@code mapreduce.reduce.shuffle.max-fetch-failures-notifications} times (default 3), the notifications the
 * ApplicationMaster counts before it declares a map's output lost and re-runs the map (it also wants at least half
 * the shuffling reducers to have reported, counting notifications; every reducer of the job loses the same outputs).
 * The stock scheduler sends one notification per failed copy and retries the copy, so it reaches the same count
 * after as many failed copies; here the output is known gone (its server stayed unreachable for the failure timeout),
 * so waiting would only delay the re-run. A shuffle that paused for lost outputs waits for the re-run maps
 * ({@link LostMapRecovery}); one that failed naming them fails the attempt, and its retry finds the re-run maps' outputs.
 */
final class LostMapOutputs {

    private static final Logger LOG = LoggerFactory.getLogger(LostMapOutputs.class);

    /** Sends the task's status to the ApplicationMaster now. */
    interface StatusSender {
        void send() throws IOException;
    }

    private final TaskStatus status;
    private final StatusSender sender;
    private final int notifications;

    LostMapOutputs(JobConf job, TaskStatus status, StatusSender sender) {
        this.status = status;
        this.sender = sender;
        this.notifications = Math.max(1, job.getInt(MRJobConfig.MAX_FETCH_FAILURES_NOTIFICATIONS,
                MRJobConfig.DEFAULT_MAX_FETCH_FAILURES_NOTIFICATIONS));
    }

    /**
     * Reports the map attempts {@code reason} names missing, if any. Never throws: the attempt is failing anyway, and
     * its failure must say why, not that a report went wrong.
     */
    void report(String reason) {
        report(MissingMapAttempts.in(reason));
    }

    /** Reports the outputs of {@code lost} lost, if any; never throws (as {@link #report(String)}). */
    void report(List<String> lost) {
        if (lost.isEmpty()) {
            return;
        }
        try {
            for (int i = 0; i < notifications; i++) {
                for (String attempt : lost) {
                    status.addFetchFailedMap(TaskAttemptID.forName(attempt));
                }
                sender.send();
            }
            LOG.warn("reported the outputs of map attempts {} lost to the ApplicationMaster ({} notifications), so"
                    + " it runs those maps again", lost, notifications);
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not report the outputs of map attempts {} lost: {}", lost, e.toString());
        }
    }
}
