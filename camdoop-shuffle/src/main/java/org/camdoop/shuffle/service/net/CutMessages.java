package org.camdoop.shuffle.service.net;

import java.io.DataInputStream;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.io.WritableUtils;
import org.camdoop.shuffle.protocol.ShuffleGeneration;
import org.camdoop.shuffle.protocol.TreeRepair;

/**
 * The service messages of a tree repair's cut (docs/recovery.md, "Tree repair"): a shuffle's root asks the daemon that
 * runs the failed vertex's parent, in one tree, to stop taking that vertex's stream and say where it stands; the answer
 * gives the key the repair's subtree resumes after. Decoded through {@link ShuffleMessages#decode}, which owns the type
 * byte.
 *
 * <pre>
 * u8 type
 * 12 CUT       i64 streamKey; i32 partition; u8 tree (0..5); vint parent; vint failed (vertex indices, 0..2^16);
 *              vlong run (the failed server's run declared failed, &gt;= 0); vint binding (1..7)
 *                 -- root to the parent's daemon: cut the parent's input from the failed vertex, for the repair
 *                    generation numbered binding
 * 13 CUT_DONE  i64 streamKey; i32 partition; u8 tree; u8 outcome
 *              outcome 0 TAKEN:    u8 flag (0 or 1); if flag: vint len (0..16384); len bytes
 *                                  -- the last key the parent took whole from the failed vertex (none: nothing yet)
 *              outcome 1 ENDED     -- that stream had ended: the tree needs no repair
 *              outcome 2 INEXACT   -- cut inside a key group too large to hold back: no exact resume point
 *              outcome 3 REFUSED:  utf reason  -- nothing cut (no such vertex or input running here, not the root)
 *                 -- the parent's daemon to the root
 * </pre>
 * The streamKey is the generation's being cut ({@code ShuffleSpec.streamKey()}), so a late answer for an earlier
 * generation cannot be taken for the current one's.
 */
public final class CutMessages {

    public static final int CUT = 12;
    public static final int CUT_DONE = 13;
    private static final int MAX_REASON_CHARS = 2000;

    private CutMessages() {
    }

    /** Where a parent's input from a failed vertex stood when cut. */
    public enum Outcome {
        TAKEN, ENDED, INEXACT, REFUSED
    }

    /**
     * Cut the input of vertex {@code parent} in tree {@code tree} of generation {@code streamKey} that comes from
     * vertex {@code failed}, whose server's run {@code failedRun} failed; the repair generation {@code binding}
     * replaces it.
     */
    public record Cut(long streamKey, int partition, int tree, int parent, int failed, long failedRun, int binding)
            implements ShuffleMessages.Message {
    }

    /**
     * Where that input stood: {@code key} is the last key taken whole ({@link Outcome#TAKEN} only; empty if none yet),
     * {@code reason} why nothing was cut ({@link Outcome#REFUSED} only, else empty).
     */
    public record CutDone(long streamKey, int partition, int tree, Outcome outcome, Optional<byte[]> key,
            String reason) implements ShuffleMessages.Message {
        public CutDone {
            if (key.isPresent() && outcome != Outcome.TAKEN) {
                throw new IllegalArgumentException("a cut " + outcome + " carries no key");
            }
            key = key.map(byte[]::clone);
        }

        @Override
        public Optional<byte[]> key() {
            return key.map(byte[]::clone);
        }
    }

    public static byte[] cut(Cut c) {
        return ShuffleMessages.write(out -> {
            out.writeByte(CUT);
            out.writeLong(c.streamKey());
            out.writeInt(c.partition());
            out.writeByte(c.tree());
            WritableUtils.writeVInt(out, c.parent());
            WritableUtils.writeVInt(out, c.failed());
            WritableUtils.writeVLong(out, c.failedRun());
            WritableUtils.writeVInt(out, c.binding());
        });
    }

    public static byte[] cutDone(CutDone d) {
        return ShuffleMessages.write(out -> {
            out.writeByte(CUT_DONE);
            out.writeLong(d.streamKey());
            out.writeInt(d.partition());
            out.writeByte(d.tree());
            out.writeByte(d.outcome().ordinal());
            switch (d.outcome()) {
                case TAKEN -> {
                    Optional<byte[]> key = d.key();
                    out.writeByte(key.isPresent() ? 1 : 0);
                    if (key.isPresent()) {
                        WritableUtils.writeVInt(out, key.get().length);
                        out.write(key.get());
                    }
                }
                case REFUSED -> out.writeUTF(d.reason().length() > MAX_REASON_CHARS
                        ? d.reason().substring(0, MAX_REASON_CHARS) : d.reason());
                default -> {
                }
            }
        });
    }

    static Cut decodeCut(DataInputStream in) throws IOException {
        long streamKey = in.readLong();
        int partition = in.readInt();
        int tree = tree(in);
        int parent = ShuffleMessages.bounded(in, ShuffleMessages.MAX_LIST, "parent vertex");
        int failed = ShuffleMessages.bounded(in, ShuffleMessages.MAX_LIST, "failed vertex");
        long run = ShuffleMessages.incarnation(in);
        int binding = ShuffleMessages.bounded(in, ShuffleGeneration.MAX_GENERATIONS - 1, "repair generation");
        if (binding == 0) {
            throw new IllegalArgumentException("a cut for generation 0, which repairs nothing");
        }
        return new Cut(streamKey, partition, tree, parent, failed, run, binding);
    }

    static CutDone decodeCutDone(DataInputStream in) throws IOException {
        long streamKey = in.readLong();
        int partition = in.readInt();
        int tree = tree(in);
        int code = in.readUnsignedByte();
        if (code >= Outcome.values().length) {
            throw new IllegalArgumentException("cut outcome " + code);
        }
        Outcome outcome = Outcome.values()[code];
        Optional<byte[]> key = Optional.empty();
        String reason = "";
        if (outcome == Outcome.TAKEN) {
            int flag = in.readUnsignedByte();
            if (flag > 1) {
                throw new IllegalArgumentException("cut key flag " + flag);
            }
            if (flag == 1) {
                byte[] k = new byte[ShuffleMessages.bounded(in, TreeRepair.MAX_KEY_BYTES, "cut key length")];
                in.readFully(k);
                key = Optional.of(k);
            }
        } else if (outcome == Outcome.REFUSED) {
            reason = in.readUTF();
        }
        return new CutDone(streamKey, partition, tree, outcome, key, reason);
    }

    private static int tree(DataInputStream in) throws IOException {
        int tree = in.readUnsignedByte();
        if (tree >= TreeRepair.MAX_TREES) {
            throw new IllegalArgumentException("cut names tree " + tree);
        }
        return tree;
    }
}
