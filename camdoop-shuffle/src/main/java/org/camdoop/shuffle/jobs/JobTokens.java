package org.camdoop.shuffle.jobs;

import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.MapOutput;
import org.camdoop.shuffle.protocol.MapOutputRegistration;
import org.camdoop.shuffle.protocol.Refusal;

/**
 * The job tokens this daemon knows, by job id, and the checks of proofs made with them. Under YARN the auxiliary
 * service adds each application's job token in {@code initializeApplication} (as the stock ShuffleHandler does) and
 * removes it in {@code stopApplication}. A standalone daemon has no NodeManager to vouch for tokens; if
 * {@link JobsConfig#JOB_TOKEN_TRUST_ON_FIRST_USE} is on it accepts the first token a loopback client presents for a job
 * ({@link #claimOnFirstUse}); docs/security.md says what that trusts.
 *
 * <p>Thread-safe: {@link #passwords} is a concurrent map and every update is one atomic map operation.
 */
public final class JobTokens {
    private final boolean trustOnFirstUse;
    /** Job id to job token password (a private copy). */
    private final Map<String, byte[]> passwords = new ConcurrentHashMap<>();

    public JobTokens(JobsConfig config) {
        this.trustOnFirstUse = config.trustOnFirstUse();
    }

    /** Records the token of {@code jobId}, replacing any earlier one (the NodeManager is authoritative). */
    public void add(String jobId, byte[] password) {
        if (password.length == 0) {
            throw new IllegalArgumentException("empty job token password for " + jobId);
        }
        passwords.put(jobId, password.clone());
    }

    public void remove(String jobId) {
        passwords.remove(jobId);
    }

    public boolean knows(String jobId) {
        return passwords.containsKey(jobId);
    }

    /**
     * Standalone mode: accepts {@code password} as the token of {@code jobId} if trust on first use is on, the client
     * connected from a loopback address, and no token is known for the job yet (or the same one is).
     */
    public Verdict claimOnFirstUse(String jobId, byte[] password, InetAddress client) {
        if (!trustOnFirstUse) {
            return Verdict.refused(Refusal.REFUSED,
                    "job token for " + jobId + " refused: " + JobsConfig.JOB_TOKEN_TRUST_ON_FIRST_USE
                    + " is off");
        }
        if (!client.isLoopbackAddress()) {
            return Verdict.refused(Refusal.REFUSED,
                    "job token for " + jobId + " refused: only loopback clients may present one, not "
                    + client.getHostAddress());
        }
        if (password.length == 0) {
            return Verdict.refused(Refusal.REFUSED, "job token for " + jobId + " refused: empty password");
        }
        byte[] known = passwords.putIfAbsent(jobId, password.clone());
        if (known != null && !JobTokenProof.matches(known, password)) {
            return Verdict.refused(Refusal.REFUSED,
                    "job token for " + jobId + " refused: the job already has another token");
        }
        return Verdict.OK;
    }

    /** Whether {@code registration} carries a valid proof for its job. */
    public Verdict check(MapOutputRegistration registration) {
        MapOutput out = registration.output();
        byte[] password = passwords.get(out.jobId());
        if (password == null) {
            return unknownJob(out.jobId());
        }
        if (!JobTokenProof.matches(JobTokenProof.forMapOutput(password, out), registration.proof())) {
            return Verdict.refused(Refusal.BAD_PROOF,
                    "map output registration for " + out.attemptId() + " refused: bad job token proof");
        }
        return Verdict.OK;
    }

    /** Whether {@code proof} proves that the sender of {@code spec} holds the job's token. */
    public Verdict check(JobSpec spec, byte[] proof) {
        byte[] password = passwords.get(spec.jobId());
        if (password == null) {
            return unknownJob(spec.jobId());
        }
        if (!JobTokenProof.matches(JobTokenProof.forSpec(password, spec), proof)) {
            return Verdict.refused(Refusal.BAD_PROOF,
                    "job spec registration for " + spec.jobId() + " refused: bad job token proof");
        }
        return Verdict.OK;
    }

    /** Whether {@code proof} proves that the sender asking for this shuffle holds the job's token. */
    public Verdict checkShuffle(String jobId, int partition, int attempt, byte[] proof) {
        byte[] password = passwords.get(jobId);
        if (password == null) {
            return unknownJob(jobId);
        }
        if (!JobTokenProof.matches(JobTokenProof.forShuffle(password, jobId, partition, attempt), proof)) {
            return Verdict.refused(Refusal.BAD_PROOF,
                    "shuffle of " + jobId + " partition " + partition + " refused: bad job token proof");
        }
        return Verdict.OK;
    }

    private static Verdict unknownJob(String jobId) {
        return Verdict.refused(Refusal.UNKNOWN_JOB, "unknown job " + jobId + ": no job token registered");
    }
}
