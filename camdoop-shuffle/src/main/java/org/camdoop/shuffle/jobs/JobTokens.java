package org.camdoop.shuffle.jobs;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.camdoop.shuffle.protocol.JarDigest;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.MapOutput;
import org.camdoop.shuffle.protocol.MapOutputRegistration;
import org.camdoop.shuffle.protocol.Refusal;

/**
 * The jobs this daemon may serve, by job id: each with its job token and user as the NodeManager reported them
 * ({@link #add}, from the auxiliary service's {@code initializeApplication}; removed in {@code stopApplication}), or,
 * on a standalone daemon with {@link JobsConfig#JOB_TOKEN_TRUST_ON_FIRST_USE}, with only the local user who named the
 * job first ({@link #authorise}); docs/security.md says what that trusts. The user names the job's directories
 * ({@code usercache/<user>}) and their owner ({@link MapOutputLocator}). Checks who may make a local request for a
 * job ({@link #authorise}) and the job token proofs of requests. The job's secret never crosses the local channel.
 *
 * <p>Thread-safe: {@link #jobs} and {@link #jarBytes} are concurrent maps, every update one atomic map operation.
 * At most {@link JobsConfig#MAX_JOBS} jobs are known at once.
 */
public final class JobTokens {
    /** What is known of a job: its password (null: owned on first use, no token) and its user (null: unknown). */
    private record Known(byte[] password, String user) {
    }

    private final boolean trustOnFirstUse;
    private final boolean peerIsJobUser;
    private final int maxJobs;
    private final long maxJobJarBytes;
    private final Map<String, Known> jobs = new ConcurrentHashMap<>();
    /** Bytes of jars each job sent over the local channel. */
    private final Map<String, Long> jarBytes = new ConcurrentHashMap<>();
    /** Jobs owned on first use that had no registered job at the last sweep ({@link #forgetUnregisteredOwners}). */
    private final Set<String> unregisteredAtLastSweep = ConcurrentHashMap.newKeySet();

    public JobTokens(JobsConfig config) {
        this.trustOnFirstUse = config.trustOnFirstUse();
        this.peerIsJobUser = config.peerIsJobUser();
        this.maxJobs = config.maxJobs();
        this.maxJobJarBytes = config.jarCacheMaxJobBytes();
    }

    /** Records the token of {@code jobId} with no known user; see {@link #add(String, byte[], String)}. */
    public void add(String jobId, byte[] password) {
        add(jobId, password, null);
    }

    /**
     * Records the token and user of {@code jobId}, replacing any earlier ones (the NodeManager is authoritative).
     *
     * @throws IllegalStateException if the daemon already knows {@link JobsConfig#MAX_JOBS} other jobs
     */
    public void add(String jobId, byte[] password, String user) {
        if (password.length == 0) {
            throw new IllegalArgumentException("empty job token password for " + jobId);
        }
        if (!jobs.containsKey(jobId) && jobs.size() >= maxJobs) {
            throw new IllegalStateException("job token for " + jobId + " refused: the daemon already knows " + maxJobs
                    + " jobs (" + JobsConfig.MAX_JOBS + ")");
        }
        jobs.put(jobId, new Known(password.clone(), user == null ? null : MapOutputLocator.checkUser(user)));
    }

    public void remove(String jobId) {
        jobs.remove(jobId);
        jarBytes.remove(jobId);
    }

    /**
     * Forgets the jobs owned on first use that had no registered job at this sweep and at the one before: each such id
     * held one of {@link JobsConfig#MAX_JOBS} entries for good, so a local user naming ids it never used could fill
     * the table and have every later job refused. A job that registers again is owned again by whoever names it first
     * (its own tasks, as a rule: see docs/security.md on trust on first use). Jobs with a token are the NodeManager's
     * to end. Call it from one thread.
     *
     * @return the ids forgotten
     */
    public List<String> forgetUnregisteredOwners(Predicate<String> registered) {
        List<String> forgotten = new ArrayList<>();
        Set<String> unregistered = new HashSet<>();
        jobs.forEach((jobId, k) -> {
            if (k.password() != null || registered.test(jobId)) {
                return;
            }
            if (!unregisteredAtLastSweep.contains(jobId)) {
                unregistered.add(jobId);
            } else if (jobs.remove(jobId, k)) {
                jarBytes.remove(jobId);
                forgotten.add(jobId);
            }
        });
        unregisteredAtLastSweep.clear();
        unregisteredAtLastSweep.addAll(unregistered);
        return forgotten;
    }

    public boolean knows(String jobId) {
        return jobs.containsKey(jobId);
    }

    /** The job's user, as the NodeManager reported it or as it was owned on first use. */
    public Optional<String> user(String jobId) {
        Known k = jobs.get(jobId);
        return k == null ? Optional.empty() : Optional.ofNullable(k.user());
    }

    /**
     * Whether the local user {@code peer} (SO_PEERCRED) may make requests for {@code jobId}, on a daemon running as
     * {@code daemonUser}. A job with a token: the peer must be the job's user ({@code job-user}) or the daemon's user
     * ({@code daemon-user}), per {@link JobsConfig#LOCAL_PEER_CHECK}. A job without one, with trust on first use: the
     * first user to name it owns it. Without trust on first use an unknown job is refused.
     */
    public Verdict authorise(String jobId, String peer, String daemonUser) {
        try {
            JobSpec.checkJobId(jobId); // only canonical ids key the table (and name directories)
        } catch (IllegalArgumentException e) {
            return Verdict.refused(Refusal.MALFORMED, "request from user " + peer + " refused: " + e.getMessage());
        }
        Known k = jobs.get(jobId);
        if (k == null) {
            if (!trustOnFirstUse) {
                return unknownJob(jobId);
            }
            if (jobs.size() >= maxJobs) {
                return Verdict.refused(Refusal.REFUSED, "request for " + jobId + " from user " + peer
                        + " refused: the daemon already knows " + maxJobs + " jobs (" + JobsConfig.MAX_JOBS + ")");
            }
            Known before = jobs.putIfAbsent(jobId, new Known(null, peer));
            k = before == null ? jobs.get(jobId) : before;
            if (k == null) {
                return unknownJob(jobId);
            }
        }
        if (k.password() == null || peerIsJobUser) {
            if (k.user() == null) {
                return Verdict.refused(Refusal.REFUSED, "request for " + jobId + " from user " + peer
                        + " refused: the NodeManager reported no user for the job");
            }
            if (!k.user().equals(peer)) {
                return Verdict.refused(Refusal.REFUSED, "request for " + jobId + " from user " + peer
                        + " refused: the job belongs to user " + k.user());
            }
            return Verdict.OK;
        }
        if (!daemonUser.equals(peer)) {
            return Verdict.refused(Refusal.REFUSED, "request for " + jobId + " from user " + peer + " refused: with "
                    + JobsConfig.LOCAL_PEER_CHECK + "=daemon-user only the daemon's user " + daemonUser + " may ask");
        }
        return Verdict.OK;
    }

    /** Whether {@code registration} carries a valid proof for its job. */
    public Verdict check(MapOutputRegistration registration) {
        MapOutput out = registration.output();
        return check(out.jobId(), p -> JobTokenProof.forMapOutput(p, out), registration.proof(),
                "map output registration for " + out.attemptId());
    }

    /** Whether {@code proof} proves that the sender of {@code spec} holds the job's token. */
    public Verdict check(JobSpec spec, byte[] proof) {
        return check(spec.jobId(), p -> JobTokenProof.forSpec(p, spec), proof,
                "job spec registration for " + spec.jobId());
    }

    /** Whether {@code proof} proves that the sender asking for this shuffle, over {@code nonce}, holds the token. */
    public Verdict checkShuffle(String jobId, int partition, int attempt, int modeCode, int treesCode, byte[] nonce,
            SortedSet<String> mapAttempts, byte[] proof) {
        return check(jobId, p -> JobTokenProof.forShuffle(p, jobId, partition, attempt, modeCode, treesCode, nonce,
                mapAttempts), proof, "shuffle of " + jobId + " partition " + partition);
    }

    /** Whether {@code proof} proves that the sender of this jar holds the job's token. */
    public Verdict checkJar(String jobId, JarDigest digest, long size, byte[] proof) {
        return check(jobId, p -> JobTokenProof.forJar(p, jobId, digest, size), proof,
                "jar " + digest + " for " + jobId);
    }

    /**
     * Charges {@code size} bytes of jar to the job's quota ({@link JobsConfig#JAR_CACHE_MAX_JOB_BYTES}) if it has
     * room; give them back with {@link #refundJar} if the upload then fails.
     */
    public Verdict chargeJar(String jobId, JarDigest digest, long size) {
        long[] after = new long[1];
        jarBytes.compute(jobId, (id, before) -> {
            long b = before == null ? 0 : before;
            after[0] = b + size;
            return after[0] <= maxJobJarBytes ? after[0] : b;
        });
        if (after[0] > maxJobJarBytes) {
            return Verdict.refused(Refusal.REFUSED, "jar " + digest + " for " + jobId + " refused: the job's jars would"
                    + " take " + after[0] + " bytes, over its quota of " + maxJobJarBytes + " ("
                    + JobsConfig.JAR_CACHE_MAX_JOB_BYTES + ")");
        }
        return Verdict.OK;
    }

    /** Gives back a charge whose upload failed. */
    public void refundJar(String jobId, long size) {
        jarBytes.computeIfPresent(jobId, (id, before) -> Math.max(0, before - size));
    }

    /**
     * Whether a torus START of a shuffle of {@code jobId} carries the proof its reduce task gave the root: checked only
     * where the daemon holds the job's token (the daemons that ran the job's tasks); elsewhere there is nothing to
     * check it with and the START is accepted (its spec still comes only from authenticated daemons).
     *
     * @return null if accepted, else the exact reason
     */
    public String checkTorusStart(String jobId, int partition, int attempt, int modeCode, int treesCode,
            SortedSet<String> mapAttempts, byte[] nonce, byte[] proof) {
        Known k = jobs.get(jobId);
        if (k == null || k.password() == null) {
            return null;
        }
        if (proof.length == 0) {
            return "it carries no job token proof and this daemon holds the token of " + jobId;
        }
        byte[] expected = JobTokenProof.forShuffle(k.password(), jobId, partition, attempt, modeCode, treesCode, nonce,
                mapAttempts);
        return JobTokenProof.matches(expected, proof) ? null : "bad job token proof";
    }

    /** Makes the proof expected with a password. */
    @FunctionalInterface
    private interface Expected {
        byte[] with(byte[] password);
    }

    private Verdict check(String jobId, Expected expected, byte[] proof, String what) {
        Known k = jobs.get(jobId);
        if (k == null) {
            return unknownJob(jobId);
        }
        if (k.password() == null) {
            // Owned on first use: no token to check against; authorise() checked the peer is the owner.
            return Verdict.OK;
        }
        if (!JobTokenProof.matches(expected.with(k.password()), proof)) {
            return Verdict.refused(Refusal.BAD_PROOF, what + " refused: bad job token proof");
        }
        return Verdict.OK;
    }

    private static Verdict unknownJob(String jobId) {
        return Verdict.refused(Refusal.UNKNOWN_JOB, "unknown job " + jobId + ": no job token registered");
    }
}
