package org.camdoop.shuffle.service.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.TreeSet;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;

/** START carries attempts as numbers; the names decoded must be exactly Hadoop's names of those attempts. */
class ShuffleMessagesTest {

    @Test
    void startRoundTripsAttemptNamesExactlyAsHadoopPrintsThem() {
        JobID job = new JobID("1700000000000", 12345);
        TreeSet<String> expected = new TreeSet<>();
        int[] tasks = {0, 7, 999_999, 1_000_000, 12_345_678};
        for (int task : tasks) {
            for (int attempt : new int[] {0, 3, 1000}) {
                expected.add(new TaskAttemptID(new TaskID(job, TaskType.MAP, task), attempt).toString());
            }
        }
        ShuffleSpec spec = new ShuffleSpec(5L, job.toString(), 2, 1, new Coord(1, 2, 0), ShuffleMode.CAMDOOP,
                TreeChoice.SIX, expected);
        ShuffleMessages.Start start =
                assertInstanceOf(ShuffleMessages.Start.class, ShuffleMessages.decode(ShuffleMessages.start(spec, StartProof.NONE)));
        assertEquals(spec, start.spec());
        assertEquals(expected, start.spec().expectedAttempts());
    }
}
