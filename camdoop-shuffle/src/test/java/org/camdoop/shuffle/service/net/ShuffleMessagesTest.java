package org.camdoop.shuffle.service.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.camdoop.shuffle.protocol.ShuffleGeneration;
import org.camdoop.shuffle.service.net.MembershipMessages.LinkRuns;
import org.camdoop.shuffle.service.net.MembershipMessages.ServerRun;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.TreeRepair;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;

/**
 * START carries attempts as numbers; the names decoded must be exactly Hadoop's names of those attempts. A restarted
 * generation's failure view and resume key round-trip; malformed ones are refused with the reason.
 */
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

    private static ShuffleSpec restarted(ShuffleGeneration g) {
        return new ShuffleSpec(5L, "job_1700000000000_0001", 2, 1, new Coord(1, 2, 0), ShuffleMode.NOAGG,
                TreeChoice.SIX, new TreeSet<>(), g);
    }

    @Test
    void aRestartedStartCarriesItsGenerationFailuresAndResumeKey() {
        ShuffleSpec spec = restarted(new ShuffleGeneration(3, Optional.of(new byte[] {4, 'k', 'e', 'y', 0}),
                new int[] {1, 13, 26}, new long[] {0, 1_764_100_000_000L, 7}, 1_764_200_000_000L));
        ShuffleSpec back = ((ShuffleMessages.Start) ShuffleMessages.decode(ShuffleMessages.start(spec,
                StartProof.NONE))).spec();
        assertEquals(spec, back);
        assertArrayEquals(new byte[] {4, 'k', 'e', 'y', 0}, back.generation().resumeAfter().orElseThrow());
        assertArrayEquals(new int[] {1, 13, 26}, back.generation().failed());
        assertArrayEquals(new long[] {0, 1_764_100_000_000L, 7}, back.generation().incarnations());
        assertEquals(1_764_200_000_000L, back.generation().rootIncarnation());
        // Generations are streams of their own; generation 0 keeps the key a shuffle always had.
        assertNotEquals(spec.streamKey(0), spec.streamKey());
        assertEquals(restarted(ShuffleGeneration.FIRST).streamKey(), spec.streamKey(0));
        // An empty key is a key (a NullWritable's): resuming after it is not starting over.
        ShuffleSpec empty = restarted(new ShuffleGeneration(1, Optional.of(new byte[0]), new int[0], new long[0], 0));
        assertEquals(empty, ((ShuffleMessages.Start) ShuffleMessages.decode(ShuffleMessages.start(empty,
                StartProof.NONE))).spec());
        assertNotEquals(empty, restarted(new ShuffleGeneration(1, Optional.empty(), new int[0], new long[0], 0)));
    }

    /**
     * A repair generation names the failed vertex, the trees whose subtree of it it rebuilds and each tree's resume
     * key, after everything a whole generation carries (which is therefore encoded as before); a repair that lies
     * about its trees or its vertex is refused with the reason.
     */
    @Test
    void aRepairStartCarriesItsVertexItsTreesAndTheirResumeKeys() {
        TreeRepair repair = new TreeRepair(13, new int[] {1, 4}, List.of(Optional.of(new byte[] {3, 'a', 'b', 'c'}),
                Optional.empty()));
        ShuffleSpec spec = restarted(new ShuffleGeneration(1, Optional.empty(), new int[] {13}, new long[] {9}, 5,
                Optional.of(repair)));
        byte[] bytes = ShuffleMessages.start(spec, StartProof.NONE);
        ShuffleSpec back = ((ShuffleMessages.Start) ShuffleMessages.decode(bytes)).spec();
        assertEquals(spec, back);
        assertEquals(13, back.generation().repair().orElseThrow().vertex());
        assertArrayEquals(new byte[] {3, 'a', 'b', 'c'}, back.generation().repair().orElseThrow().resumeKey(1)
                .orElseThrow());
        assertEquals(Optional.empty(), back.generation().repair().orElseThrow().resumeKey(4));
        assertNotEquals(spec, restarted(new ShuffleGeneration(1, Optional.empty(), new int[] {13}, new long[] {9}, 5)));
        ShuffleSpec none = restarted(new ShuffleGeneration(1, Optional.empty(), new int[] {13}, new long[] {9}, 5,
                Optional.of(new TreeRepair(13, new int[0], List.of()))));
        assertEquals(none, ((ShuffleMessages.Start) ShuffleMessages.decode(ShuffleMessages.start(none,
                StartProof.NONE))).spec());
        // The repair's last bytes: 0d (vertex 13) 02 (trees) 01 01 04 03 'a' 'b' 'c' 04 00.
        byte[] unordered = bytes.clone();
        unordered[unordered.length - 2] = 1;
        assertEquals("repaired trees must be distinct, 0..5 and ascending: [1, 1]", assertThrows(
                IllegalArgumentException.class, () -> ShuffleMessages.decode(unordered)).getMessage());
        byte[] noSuchTree = bytes.clone();
        noSuchTree[noSuchTree.length - 2] = 6;
        assertEquals("repaired trees must be distinct, 0..5 and ascending: [1, 6]", assertThrows(
                IllegalArgumentException.class, () -> ShuffleMessages.decode(noSuchTree)).getMessage());
        byte[] badFlag = bytes.clone();
        badFlag[badFlag.length - 1] = 2;
        assertEquals("shuffle start has tree resume flag 2", assertThrows(IllegalArgumentException.class,
                () -> ShuffleMessages.decode(badFlag)).getMessage());
        byte[] tooMany = bytes.clone();
        tooMany[tooMany.length - 10] = 7;
        assertEquals("shuffle start repairs 7 trees", assertThrows(IllegalArgumentException.class,
                () -> ShuffleMessages.decode(tooMany)).getMessage());
        byte[] negativeVertex = bytes.clone();
        negativeVertex[negativeVertex.length - 11] = -1;
        assertEquals("service message names repaired vertex -1 (0..65536)", assertThrows(
                IllegalArgumentException.class, () -> ShuffleMessages.decode(negativeVertex)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ShuffleGeneration(0, Optional.empty(), new int[0],
                new long[0], 5, Optional.of(repair)), "generation 0 repairs nothing");
        // No shuffle runs more generations than this, and a START naming a later one would abort every earlier one.
        assertEquals("generation must be 0..7, got 8", assertThrows(IllegalArgumentException.class,
                () -> new ShuffleGeneration(8, Optional.empty(), new int[0], new long[0], 5)).getMessage());
    }

    @Test
    void serverDownRoundTrips() {
        ServerRun run = new ServerRun(26, 1_764_100_000_000L);
        assertEquals(new MembershipMessages.ServerDown(run),
                ShuffleMessages.decode(MembershipMessages.serverDown(run)));
    }

    @Test
    void linkCutAndLinkUpRoundTripAndATruncatedOrNegativeOneIsRefused() {
        LinkRuns link = new LinkRuns(4, 1, 13, 1_764_100_000_000L);
        assertEquals(new MembershipMessages.LinkUp(link), ShuffleMessages.decode(MembershipMessages.linkUp(link)));
        byte[] bytes = MembershipMessages.linkCut(link);
        assertEquals(new MembershipMessages.LinkCut(link), ShuffleMessages.decode(bytes));
        byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 1);
        assertEquals("service message truncated (" + cut.length + " bytes)", assertThrows(
                IllegalArgumentException.class, () -> ShuffleMessages.decode(cut)).getMessage());
        byte[] negative = bytes.clone();
        negative[1] = (byte) -1; // vint -1
        assertEquals("service message names server index -1 (0..65536)", assertThrows(
                IllegalArgumentException.class, () -> ShuffleMessages.decode(negative)).getMessage());
        byte[] negativeRun = bytes.clone();
        negativeRun[2] = (byte) -1; // vlong -1
        assertEquals("service message names incarnation -1", assertThrows(
                IllegalArgumentException.class, () -> ShuffleMessages.decode(negativeRun)).getMessage());

    }

    @Test
    void aViewRoundTripsAndAHugeCountIsRefused() {
        MembershipMessages.View v = new MembershipMessages.View(true, List.of(new ServerRun(3, 9),
                new ServerRun(7, 0)), List.of(new LinkRuns(0, 1, 1, 2)), List.of(new LinkRuns(0, 1, 1, 3),
                new LinkRuns(1, 3, 2, 4)));
        byte[] bytes = MembershipMessages.view(v);
        assertEquals(v, ShuffleMessages.decode(bytes));
        byte[] huge = new byte[] {MembershipMessages.VIEW, 0, (byte) 0x8d, 0x01, 0x00, 0x01}; // vint 65537 ups
        assertEquals("service message names entry count 65537 (0..65536)", assertThrows(
                IllegalArgumentException.class, () -> ShuffleMessages.decode(huge)).getMessage());
    }

    @Test
    void specRequestRoundTripsAndATruncatedOneIsRefused() {
        byte[] bytes = SpecMessages.specRequest("job_1700000000000_0007");
        assertEquals(new SpecMessages.SpecRequest("job_1700000000000_0007"), ShuffleMessages.decode(bytes));
        byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 1);
        assertEquals("service message truncated (" + cut.length + " bytes)", assertThrows(
                IllegalArgumentException.class, () -> ShuffleMessages.decode(cut)).getMessage());
        byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1);
        assertEquals("service message has trailing bytes", assertThrows(IllegalArgumentException.class,
                () -> ShuffleMessages.decode(longer)).getMessage());
    }

    @Test
    void malformedGenerationsAreRefusedWithTheReason() {
        byte[] good = ShuffleMessages.start(restarted(new ShuffleGeneration(1, Optional.empty(),
                new int[] {2, 5}, new long[] {3, 4}, 0)), StartProof.NONE);
        // The last bytes: failed servers and their runs, the root's run, the resume flag: 02 02 03 05 04 00 00.
        byte[] unordered = good.clone();
        unordered[unordered.length - 6] = 5;
        unordered[unordered.length - 4] = 2;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ShuffleMessages.decode(unordered));
        assertEquals("failed servers must be distinct, >= 0 and ascending: [5, 2]", e.getMessage());
        byte[] badFlag = good.clone();
        badFlag[badFlag.length - 1] = 7;
        assertEquals("shuffle start has resume flag 7", assertThrows(IllegalArgumentException.class,
                () -> ShuffleMessages.decode(badFlag)).getMessage());
        byte[] negative = MembershipMessages.serverDown(new ServerRun(3, 1));
        negative[1] = (byte) -1; // vint -1
        assertEquals("service message names server index -1 (0..65536)", assertThrows(
                IllegalArgumentException.class, () -> ShuffleMessages.decode(negative)).getMessage());
    }

    /**
     * HELD names map outputs by their index in the START's sorted attempts, and the run of the daemon reporting; none
     * is a report too; a count or order that lies is refused; an earlier version's report, without the run, is read.
     */
    @Test
    void heldRoundTripsEvenEmptyAndAnUnorderedOrOverlongListIsRefused() {
        byte[] bytes = ShuffleMessages.held(-42L, 3, new int[] {0, 5, 300}, 1_700_000_000_123L);
        ShuffleMessages.Held h = (ShuffleMessages.Held) ShuffleMessages.decode(bytes);
        assertEquals(List.of(-42L, 3L, 1_700_000_000_123L), List.of(h.streamKey(), (long) h.partition(), h.run()));
        assertEquals("[0, 5, 300]", java.util.Arrays.toString(h.indices()));
        assertEquals("held map output indices not ascending: 5, 5", assertThrows(IllegalArgumentException.class,
                () -> ShuffleMessages.decode(ShuffleMessages.held(1L, 0, new int[] {5, 5}, 7))).getMessage());
        // A daemon holding none of the outputs reports that too.
        assertArrayEquals(new int[0],
                ((ShuffleMessages.Held) ShuffleMessages.decode(ShuffleMessages.held(1L, 0, new int[0], 7))).indices());
        byte[] claims = ShuffleMessages.held(1L, 0, new int[] {1}, 7);
        claims[13] = 100; // the count: 100 indices announced, 2 bytes (an index and the run) left
        assertEquals("held map output count 100 with 2 bytes left", assertThrows(IllegalArgumentException.class,
                () -> ShuffleMessages.decode(claims)).getMessage());
        byte[] past = ShuffleMessages.held(1L, 0, new int[] {1 << 18}, 7);
        assertEquals("service message names held map output index 262144 (0..262143)", assertThrows(
                IllegalArgumentException.class, () -> ShuffleMessages.decode(past)).getMessage());
        // Before the run was added, a report ended after its indices.
        byte[] older = java.util.Arrays.copyOf(bytes, bytes.length - 7); // 1_700_000_000_123 is a 7-byte vlong
        ShuffleMessages.Held old = (ShuffleMessages.Held) ShuffleMessages.decode(older);
        assertEquals(ShuffleMessages.Held.UNKNOWN_RUN, old.run());
        assertEquals("[0, 5, 300]", java.util.Arrays.toString(old.indices()));
        byte[] zeroRun = ShuffleMessages.held(1L, 0, new int[0], 7);
        zeroRun[zeroRun.length - 1] = 0;
        assertEquals("held report names run 0 of its daemon", assertThrows(IllegalArgumentException.class,
                () -> ShuffleMessages.decode(zeroRun)).getMessage());
        assertEquals("a HELD report names the run of its daemon, not 0", assertThrows(
                IllegalArgumentException.class, () -> ShuffleMessages.held(1L, 0, new int[0], 0)).getMessage());
    }
}
