package org.camdoop.shuffle.service.net;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.camdoop.shuffle.protocol.ShuffleCodes;
import org.camdoop.shuffle.protocol.ShuffleGeneration;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.TreeRepair;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.trees.TreeChoice;

/**
 * The service messages between daemons (sent with {@code TorusNode.sendService}).
 *
 * <pre>
 * u8 type
 * 1 START  i64 jobKey; utf jobId; i32 partition; i32 attempt; i32 x, y, z (root); u8 mode; u8 trees;
 *          vint n; n x (vint task number, vint attempt number)   -- map attempts of jobId, sorted
 *          u8 k (0..64); k bytes nonce; u8 m (0..64); m bytes proof  -- what the reduce task proved to the root
 *          (JobTokenProof.forShuffle over the root's nonce; k = m = 0: started in process, no proof)
 *          vint g (generation, 0..7); vint f (0..2^16); f x (vint server index; vlong incarnation)
 *                                                    -- failed servers, ascending, each with the run declared failed
 *          vlong root incarnation (>= 0; 0: not known)  -- the run of the root's daemon that started the generation
 *          u8 r (0 or 1); if r: vint len (0..16384); len bytes -- resume after this key (ShuffleGeneration)
 *          [vint v (vertex index); u8 n (0..6); n x (u8 tree (0..5, ascending); u8 flag (0 or 1);
 *           if flag: vint len; len bytes)]
 *                       -- a repair generation only: the failed vertex, the trees whose subtree of it it rebuilds,
 *                          each with its resume key (TreeRepair)
 * 2 ABORT  i64 streamKey; i32 partition; utf reason
 * 5 START_ACK i64 streamKey; i32 partition   -- a daemon received START (sent again until acknowledged)
 * 11 HELD  i64 streamKey; i32 partition; vint n (0..2^18); n x vint index, ascending, into the START's sorted map
 *          attempts   -- the map outputs of the shuffle this daemon holds, none if n = 0 (to the root, for every
 *          START accepted, a repeated one too)
 *          [vlong run (&gt; 0)]  -- the reporting daemon's incarnation; absent from daemons before 2026-11-27's
 *          seventeenth session (read as 0: not known)
 * 12 CUT, 13 CUT_DONE: a tree repair's cut at the failed vertex's parent, laid out in {@link CutMessages}
 * 3 SPEC, 4 JAR_PART, 7 SPEC_REQUEST: the job spec broadcast and its repair, laid out in {@link SpecMessages}
 * 6 SERVER_DOWN, 8 LINK_CUT, 9 LINK_UP, 10 VIEW: the failure views, laid out in {@link MembershipMessages}
 * </pre>
 * Attempts are sent as numbers against the job id (a few bytes each), so one frame carries thousands of them.
 */
public final class ShuffleMessages {

    public static final int START = 1;
    public static final int ABORT = 2;
    public static final int START_ACK = 5;
    public static final int HELD = 11;
    /** Failed servers a START may name, and the largest server index (a bound for the decoder, far above any use). */
    static final int MAX_LIST = 1 << 16;

    private ShuffleMessages() {
    }

    /** A decoded message. */
    public sealed interface Message permits Start, Abort, StartAck, Held, SpecMessages.Spec, SpecMessages.JarPart,
            SpecMessages.SpecRequest, CutMessages.Cut, CutMessages.CutDone, MembershipMessages.ServerDown,
            MembershipMessages.LinkCut, MembershipMessages.LinkUp, MembershipMessages.View {
    }

    /** Run your part of this shuffle: started at its root by a task that proved {@code proof}. */
    public record Start(ShuffleSpec spec, StartProof proof) implements Message {
    }

    /** Stop working on this shuffle (named by {@link ShuffleSpec#streamKey()} and partition). */
    public record Abort(long streamKey, int partition, String reason) implements Message {
    }

    public static byte[] start(ShuffleSpec spec, StartProof proof) {
        return write(out -> {
            out.writeByte(START);
            out.writeLong(spec.jobKey());
            out.writeUTF(spec.jobId());
            out.writeInt(spec.partition());
            out.writeInt(spec.attempt());
            out.writeInt(spec.root().x());
            out.writeInt(spec.root().y());
            out.writeInt(spec.root().z());
            out.writeByte(ShuffleCodes.code(spec.mode()));
            out.writeByte(ShuffleCodes.code(spec.trees()));
            WritableUtils.writeVInt(out, spec.expectedAttempts().size());
            for (String a : spec.expectedAttempts()) {
                TaskAttemptID id = parseAttempt(a, spec.jobId());
                WritableUtils.writeVInt(out, id.getTaskID().getId());
                WritableUtils.writeVInt(out, id.getId());
            }
            byte[] nonce = proof.nonce();
            out.writeByte(nonce.length);
            out.write(nonce);
            byte[] mac = proof.proof();
            out.writeByte(mac.length);
            out.write(mac);
            ShuffleGeneration g = spec.generation();
            WritableUtils.writeVInt(out, g.number());
            int[] failed = g.failed();
            long[] incarnations = g.incarnations();
            WritableUtils.writeVInt(out, failed.length);
            for (int i = 0; i < failed.length; i++) {
                WritableUtils.writeVInt(out, failed[i]);
                WritableUtils.writeVLong(out, incarnations[i]);
            }
            WritableUtils.writeVLong(out, g.rootIncarnation());
            out.writeByte(g.resumeAfter().isPresent() ? 1 : 0);
            if (g.resumeAfter().isPresent()) {
                byte[] key = g.resumeAfter().get();
                WritableUtils.writeVInt(out, key.length);
                out.write(key);
            }
            if (g.repair().isPresent()) {
                // Trailing, so a whole generation's START is what it always was.
                TreeRepair r = g.repair().get();
                WritableUtils.writeVInt(out, r.vertex());
                int[] trees = r.trees();
                out.writeByte(trees.length);
                for (int t : trees) {
                    out.writeByte(t);
                    Optional<byte[]> key = r.resumeKey(t);
                    out.writeByte(key.isPresent() ? 1 : 0);
                    if (key.isPresent()) {
                        WritableUtils.writeVInt(out, key.get().length);
                        out.write(key.get());
                    }
                }
            }
        });
    }

    /** A daemon received the START of a shuffle. */
    public record StartAck(long streamKey, int partition) implements Message {
    }

    public static byte[] startAck(long streamKey, int partition) {
        return write(out -> {
            out.writeByte(START_ACK);
            out.writeLong(streamKey);
            out.writeInt(partition);
        });
    }

    /**
     * The map outputs of a shuffle a daemon holds: {@code indices} into the START's map attempts in their sorted order,
     * ascending. Its root learns from it which outputs die with which server (recovery.md, lost map outputs).
     */
    public record Held(long streamKey, int partition, int[] indices, long run) implements Message {
        /** {@link #run} of a report that does not say which run of its daemon sent it (an earlier version's). */
        public static final long UNKNOWN_RUN = 0;

        public Held {
            indices = indices.clone();
        }

        @Override
        public int[] indices() {
            return indices.clone();
        }
    }

    /** HELD from run {@code run} (its daemon's incarnation, &gt; 0) of the reporting daemon. */
    public static byte[] held(long streamKey, int partition, int[] indices, long run) {
        if (run <= Held.UNKNOWN_RUN) {
            throw new IllegalArgumentException("a HELD report names the run of its daemon, not " + run);
        }
        return write(out -> {
            out.writeByte(HELD);
            out.writeLong(streamKey);
            out.writeInt(partition);
            WritableUtils.writeVInt(out, indices.length);
            for (int i : indices) {
                WritableUtils.writeVInt(out, i);
            }
            WritableUtils.writeVLong(out, run);
        });
    }

    private static Held decodeHeld(DataInputStream in) throws IOException {
        long streamKey = in.readLong();
        int partition = in.readInt();
        int n = bounded(in, ShuffleSpec.MAX_MAP_ATTEMPTS, "held map output count");
        // None is a report too (the root counts who reported). A vint takes a byte at least: the body bounds n first.
        if (n > in.available()) {
            throw new IllegalArgumentException("held map output count " + n + " with " + in.available()
                    + " bytes left");
        }
        int[] indices = new int[n];
        for (int i = 0; i < n; i++) {
            indices[i] = bounded(in, ShuffleSpec.MAX_MAP_ATTEMPTS - 1, "held map output index");
            if (i > 0 && indices[i] <= indices[i - 1]) {
                throw new IllegalArgumentException("held map output indices not ascending: " + indices[i - 1]
                        + ", " + indices[i]);
            }
        }
        // The run came later than the rest: an earlier version's report ends before it.
        long run = Held.UNKNOWN_RUN;
        if (in.available() > 0) {
            run = WritableUtils.readVLong(in);
            if (run <= Held.UNKNOWN_RUN) {
                throw new IllegalArgumentException("held report names run " + run + " of its daemon");
            }
        }
        return new Held(streamKey, partition, indices, run);
    }

    public static byte[] abort(long streamKey, int partition, String reason) {
        return write(out -> {
            out.writeByte(ABORT);
            out.writeLong(streamKey);
            out.writeInt(partition);
            out.writeUTF(reason.length() > 2000 ? reason.substring(0, 2000) : reason);
        });
    }

    /**
     * Decodes a service message.
     *
     * @throws IllegalArgumentException naming what is wrong with the bytes
     */
    public static Message decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int type = in.readUnsignedByte();
            Message m = switch (type) {
                case START -> decodeStart(in);
                case ABORT -> new Abort(in.readLong(), in.readInt(), in.readUTF());
                case START_ACK -> new StartAck(in.readLong(), in.readInt());
                case HELD -> decodeHeld(in);
                case MembershipMessages.SERVER_DOWN, MembershipMessages.LINK_CUT, MembershipMessages.LINK_UP,
                        MembershipMessages.VIEW -> MembershipMessages.decode(type, in);
                case CutMessages.CUT -> CutMessages.decodeCut(in);
                case CutMessages.CUT_DONE -> CutMessages.decodeCutDone(in);
                case SpecMessages.SPEC -> SpecMessages.decodeSpec(in);
                case SpecMessages.JAR_PART -> SpecMessages.decodeJarPart(in);
                case SpecMessages.SPEC_REQUEST -> SpecMessages.decodeSpecRequest(in);
                default -> throw new IllegalArgumentException("unknown service message type " + type);
            };
            if (in.read() != -1) {
                throw new IllegalArgumentException("service message has trailing bytes");
            }
            return m;
        } catch (EOFException e) {
            throw new IllegalArgumentException("service message truncated (" + bytes.length + " bytes)");
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed service message: " + e.getMessage());
        }
    }

    private static final String ZERO_TASK_SUFFIX = "000000_0";

    private static Start decodeStart(DataInputStream in) throws IOException {
        long jobKey = in.readLong();
        String jobId = in.readUTF();
        int partition = in.readInt();
        int attempt = in.readInt();
        Coord root = new Coord(in.readInt(), in.readInt(), in.readInt());
        ShuffleMode mode = ShuffleCodes.mode(in.readUnsignedByte());
        TreeChoice trees = ShuffleCodes.trees(in.readUnsignedByte());
        int n = WritableUtils.readVInt(in);
        if (n < 0 || n > ShuffleSpec.MAX_MAP_ATTEMPTS) {
            throw new IllegalArgumentException("shuffle start lists " + n + " map attempts");
        }
        org.apache.hadoop.mapreduce.JobID job = org.apache.hadoop.mapreduce.JobID.forName(jobId);
        // Hadoop prints "attempt_<job>_m_" then the task number padded to 6 digits, "_", the attempt number: take the
        // prefix from Hadoop once per message and append the numbers, instead of a TaskAttemptID per attempt.
        String zero = new TaskAttemptID(new org.apache.hadoop.mapreduce.TaskID(job, TaskType.MAP, 0), 0).toString();
        String prefix = zero.substring(0, zero.length() - ZERO_TASK_SUFFIX.length());
        TreeSet<String> attempts = new TreeSet<>();
        StringBuilder name = new StringBuilder(prefix.length() + 12);
        for (int i = 0; i < n; i++) {
            int task = WritableUtils.readVInt(in);
            int mapAttempt = WritableUtils.readVInt(in);
            if (task < 0 || mapAttempt < 0) {
                throw new IllegalArgumentException("shuffle start lists map attempt " + task + "/" + mapAttempt);
            }
            name.setLength(0);
            name.append(prefix);
            String digits = Integer.toString(task);
            for (int pad = digits.length(); pad < 6; pad++) {
                name.append('0');
            }
            attempts.add(name.append(digits).append('_').append(mapAttempt).toString());
        }
        byte[] nonce = shortBytes(in, "nonce");
        byte[] proof = shortBytes(in, "proof");
        ShuffleGeneration generation = decodeGeneration(in);
        return new Start(new ShuffleSpec(jobKey, jobId, partition, attempt, root, mode, trees, attempts, generation),
                new StartProof(nonce, proof));
    }

    private static ShuffleGeneration decodeGeneration(DataInputStream in) throws IOException {
        int number = bounded(in, ShuffleGeneration.MAX_GENERATIONS - 1, "generation");
        int n = bounded(in, MAX_LIST, "failed server count");
        int[] failed = new int[n];
        long[] incarnations = new long[n];
        for (int i = 0; i < n; i++) {
            failed[i] = bounded(in, MAX_LIST, "failed server index");
            incarnations[i] = incarnation(in);
        }
        long rootIncarnation = incarnation(in);
        int resumes = in.readUnsignedByte();
        if (resumes > 1) {
            throw new IllegalArgumentException("shuffle start has resume flag " + resumes);
        }
        Optional<byte[]> after = Optional.empty();
        if (resumes == 1) {
            byte[] key = new byte[bounded(in, ShuffleGeneration.MAX_RESUME_KEY_BYTES, "resume key length")];
            in.readFully(key);
            after = Optional.of(key);
        }
        // The records check the order of the failed servers and trees (IllegalArgumentException, like every decode
        // error).
        return new ShuffleGeneration(number, after, failed, incarnations, rootIncarnation, decodeRepair(in));
    }

    /** The trailing repair of a START (absent for a whole generation). */
    private static Optional<TreeRepair> decodeRepair(DataInputStream in) throws IOException {
        if (in.available() == 0) {
            return Optional.empty();
        }
        int vertex = bounded(in, MAX_LIST, "repaired vertex");
        int n = in.readUnsignedByte();
        if (n > TreeRepair.MAX_TREES) {
            throw new IllegalArgumentException("shuffle start repairs " + n + " trees");
        }
        int[] trees = new int[n];
        List<Optional<byte[]>> keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            trees[i] = in.readUnsignedByte();
            int flag = in.readUnsignedByte();
            if (flag > 1) {
                throw new IllegalArgumentException("shuffle start has tree resume flag " + flag);
            }
            Optional<byte[]> key = Optional.empty();
            if (flag == 1) {
                byte[] k = new byte[bounded(in, TreeRepair.MAX_KEY_BYTES, "tree resume key length")];
                in.readFully(k);
                key = Optional.of(k);
            }
            keys.add(key);
        }
        return Optional.of(new TreeRepair(vertex, trees, keys));
    }

    /**
     * An incarnation: a vlong, never negative. (Not bounded by this daemon's clock, as a HELLO's is: a relayed run
     * comes from a daemon whose clock may differ from this one's by more than the bound, while each of its neighbours
     * checked it within the bound; refusing it here would refuse a START that other daemons take.)
     */
    static long incarnation(DataInputStream in) throws IOException {
        long v = WritableUtils.readVLong(in);
        if (v < 0) {
            throw new IllegalArgumentException("service message names incarnation " + v);
        }
        return v;
    }

    static int bounded(DataInputStream in, int max, String what) throws IOException {
        int v = WritableUtils.readVInt(in);
        if (v < 0 || v > max) {
            throw new IllegalArgumentException("service message names " + what + " " + v + " (0.." + max + ")");
        }
        return v;
    }

    private static byte[] shortBytes(DataInputStream in, String what) throws IOException {
        int n = in.readUnsignedByte();
        if (n > StartProof.MAX_BYTES) {
            throw new IllegalArgumentException("shuffle start carries a " + n + "-byte " + what);
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    private static TaskAttemptID parseAttempt(String attempt, String jobId) {
        TaskAttemptID id;
        try {
            id = TaskAttemptID.forName(attempt);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + attempt + "' is not a map attempt id");
        }
        if (id.getTaskType() != TaskType.MAP || !id.getJobID().toString().equals(jobId)) {
            throw new IllegalArgumentException("'" + attempt + "' is not a map attempt of " + jobId);
        }
        return id;
    }

    interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    static byte[] write(Writer w) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            w.write(out);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
