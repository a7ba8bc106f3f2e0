package org.camdoop.shuffle.service.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.camdoop.shuffle.service.net.CutMessages.Cut;
import org.camdoop.shuffle.service.net.CutMessages.CutDone;
import org.camdoop.shuffle.service.net.CutMessages.Outcome;
import org.junit.jupiter.api.Test;

/** CUT and CUT_DONE: what the root asks a failed vertex's parent, and its answer; bad bytes refused with the reason. */
class CutMessagesTest {

    private static final long STREAM = 0x1234_5678_9abc_def0L;

    @Test
    void aCutRoundTrips() {
        Cut c = new Cut(STREAM, 3, 5, 12, 13, 1_764_100_000_000L, 2);
        assertEquals(c, ShuffleMessages.decode(CutMessages.cut(c)));
    }

    @Test
    void everyOutcomeRoundTripsWithWhatItCarries() {
        CutDone taken = new CutDone(STREAM, 3, 1, Outcome.TAKEN, Optional.of(new byte[] {3, 'a', 'b', 'c'}), "");
        CutDone back = (CutDone) ShuffleMessages.decode(CutMessages.cutDone(taken));
        assertEquals(Outcome.TAKEN, back.outcome());
        assertArrayEquals(new byte[] {3, 'a', 'b', 'c'}, back.key().orElseThrow());
        CutDone nothingYet = new CutDone(STREAM, 3, 1, Outcome.TAKEN, Optional.empty(), "");
        assertEquals(Optional.empty(), ((CutDone) ShuffleMessages.decode(CutMessages.cutDone(nothingYet))).key());
        for (Outcome o : new Outcome[] {Outcome.ENDED, Outcome.INEXACT}) {
            CutDone d = new CutDone(STREAM, 3, 0, o, Optional.empty(), "");
            assertEquals(d, ShuffleMessages.decode(CutMessages.cutDone(d)));
        }
        CutDone refused = new CutDone(STREAM, 3, 4, Outcome.REFUSED, Optional.empty(),
                "daemon 0,1,1: the generation does not run here");
        assertEquals(refused, ShuffleMessages.decode(CutMessages.cutDone(refused)));
        assertEquals("a cut ENDED carries no key", assertThrows(IllegalArgumentException.class,
                () -> new CutDone(STREAM, 3, 0, Outcome.ENDED, Optional.of(new byte[1]), "")).getMessage());
    }

    @Test
    void badBytesAreRefusedWithTheReason() {
        byte[] cut = CutMessages.cut(new Cut(STREAM, 3, 5, 12, 13, 7, 2));
        // type, i64, i32, then the tree.
        byte[] noSuchTree = cut.clone();
        noSuchTree[13] = 6;
        assertEquals("cut names tree 6", assertThrows(IllegalArgumentException.class,
                () -> ShuffleMessages.decode(noSuchTree)).getMessage());
        byte[] generationZero = cut.clone();
        generationZero[generationZero.length - 1] = 0;
        assertEquals("a cut for generation 0, which repairs nothing", assertThrows(IllegalArgumentException.class,
                () -> ShuffleMessages.decode(generationZero)).getMessage());
        byte[] lateGeneration = cut.clone();
        lateGeneration[lateGeneration.length - 1] = 8;
        assertEquals("service message names repair generation 8 (0..7)", assertThrows(
                IllegalArgumentException.class, () -> ShuffleMessages.decode(lateGeneration)).getMessage());
        byte[] negativeParent = cut.clone();
        negativeParent[14] = -1;
        assertEquals("service message names parent vertex -1 (0..65536)", assertThrows(
                IllegalArgumentException.class, () -> ShuffleMessages.decode(negativeParent)).getMessage());

        byte[] done = CutMessages.cutDone(new CutDone(STREAM, 3, 1, Outcome.TAKEN, Optional.of(new byte[] {9}), ""));
        byte[] noSuchOutcome = done.clone();
        noSuchOutcome[14] = 4;
        assertEquals("cut outcome 4", assertThrows(IllegalArgumentException.class,
                () -> ShuffleMessages.decode(noSuchOutcome)).getMessage());
        byte[] badFlag = done.clone();
        badFlag[15] = 2;
        assertEquals("cut key flag 2", assertThrows(IllegalArgumentException.class,
                () -> ShuffleMessages.decode(badFlag)).getMessage());
        byte[] longKey = done.clone();
        longKey[16] = 0x7f; // a key of 127 bytes, of which one follows
        assertEquals("service message truncated (18 bytes)", assertThrows(IllegalArgumentException.class,
                () -> ShuffleMessages.decode(longKey)).getMessage());
        byte[] trailing = java.util.Arrays.copyOf(done, done.length + 1);
        assertEquals("service message has trailing bytes", assertThrows(IllegalArgumentException.class,
                () -> ShuffleMessages.decode(trailing)).getMessage());
    }
}
