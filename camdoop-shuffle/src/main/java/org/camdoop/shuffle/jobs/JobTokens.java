package org.camdoop.shuffle.jobs;

import java.net.InetAddress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.MapOutput;
import org.camdoop.shuffle.protocol.MapOutputRegistration;
import org.camdoop.shuffle.protocol.Refusal;

/**
 * The job tokens this daemon knows, by job id, each with the user the job runs as, and the checks of proofs made with
 * them. Under YARN the NodeManager's shuffle ({@code daemon.CamdoopShuffleHandler}) adds each application's shuffle
 * secret and user in {@code initializeApplication}, and after a NodeManager restart those it recovered, exactly as the
 * stock ShuffleHandler learns them, and removes them in {@code stopApplication}. A standalone daemon has no NodeManager
 * to vouch for tokens; if {@link JobsConfig#JOB_TOKEN_TRUST_ON_FIRST_USE} is on it accepts the first token a loopback
 * client presents for a job ({@link #claimOnFirstUse}), for a job of the daemon's own user; docs/security.md says what
 * that trusts.
 *
 * <p>Thread-safe: {@link #grants} is a concurrent map and every update is one atomic map operation.
 */
public final class JobTokens {
    /** A job's token password (a private copy) and the user it runs as. */
    private record Grant(byte[] password, String user) {
    }

    private final boolean trustOnFirstUse;
    /** Job id to its grant. */
    private final Map<String, Grant> grants = new ConcurrentHashMap<>();

    public JobTokens(JobsConfig config) {
        this.trustOnFirstUse = config.trustOnFirstUse();
    }

    /**
     * Records the token of {@code jobId} and the user its tasks run as, replacing any earlier ones (the NodeManager is
     * authoritative). The user names the job's directories ({@code usercache/<user>}) and their owner.
     */
    public void add(String jobId, byte[] password, String user) {
        if (password.length == 0) {
            throw new IllegalArgumentException("empty job token password for " + jobId);
        }
        grants.put(jobId, new Grant(password.clone(), MapOutputLocator.checkUser(user)));
    }

    public void remove(String jobId) {
        grants.remove(jobId);
    }

    public boolean knows(String jobId) {
        return grants.containsKey(jobId);
    }

    /** The user {@code jobId} runs as, if its token is known. */
    public Optional<String> user(String jobId) {
        Grant g = grants.get(jobId);
        return g == null ? Optional.empty() : Optional.of(g.user());
    }

    /**
     * Standalone mode: accepts {@code password} as the token of {@code jobId} if trust on first use is on, the client
     * connected from a loopback address, and no token is known for the job yet (or the same one is). Nobody vouches
     * for the job's user: it is taken to be the daemon's own (single-user machines only).
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
        Grant known = grants.putIfAbsent(jobId, new Grant(password.clone(), JobsConfig.daemonUser()));
        if (known != null && !JobTokenProof.matches(known.password(), password)) {
            return Verdict.refused(Refusal.REFUSED,
                    "job token for " + jobId + " refused: the job already has another token");
        }
        return Verdict.OK;
    }

    /** Whether {@code registration} carries a valid proof for its job. */
    public Verdict check(MapOutputRegistration registration) {
        MapOutput out = registration.output();
        byte[] password = passwordOf(out.jobId());
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
        byte[] password = passwordOf(spec.jobId());
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
        byte[] password = passwordOf(jobId);
        if (password == null) {
            return unknownJob(jobId);
        }
        if (!JobTokenProof.matches(JobTokenProof.forShuffle(password, jobId, partition, attempt), proof)) {
            return Verdict.refused(Refusal.BAD_PROOF,
                    "shuffle of " + jobId + " partition " + partition + " refused: bad job token proof");
        }
        return Verdict.OK;
    }

    private byte[] passwordOf(String jobId) {
        Grant g = grants.get(jobId);
        return g == null ? null : g.password();
    }

    private static Verdict unknownJob(String jobId) {
        return Verdict.refused(Refusal.UNKNOWN_JOB, "unknown job " + jobId + ": no job token registered");
    }
}
