package org.camdoop.shuffle.jobs;

import org.camdoop.shuffle.protocol.Refusal;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.MapOutput;
import org.camdoop.shuffle.protocol.MapOutputRegistration;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.mapreduce.security.token.JobTokenSecretManager;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.Test;

class JobTokensTest {
    static final String JOB = "job_1700000000000_0002";
    static final String ATTEMPT = "attempt_1700000000000_0002_m_000003_0";

    /** A job token made as the MR application master makes it, read back the way a task reads it. */
    static Token<JobTokenIdentifier> jobTokenFromTaskCredentials(String jobId) {
        JobTokenSecretManager secrets = new JobTokenSecretManager();
        Token<JobTokenIdentifier> token = new Token<>(new JobTokenIdentifier(new Text(jobId)), secrets);
        Credentials credentials = new Credentials();
        TokenCache.setJobToken(token, credentials);
        return TokenCache.getJobToken(credentials);
    }

    static JobTokens tokens(boolean trustOnFirstUse) {
        Configuration conf = new Configuration(false);
        conf.setBoolean(JobsConfig.JOB_TOKEN_TRUST_ON_FIRST_USE, trustOnFirstUse);
        return new JobTokens(JobsConfig.from(conf));
    }

    static MapOutput output(String attempt) {
        return new MapOutput(JOB, attempt, 2);
    }

    @Test
    void aProofFromTheTasksJobTokenIsAccepted() {
        Token<JobTokenIdentifier> token = jobTokenFromTaskCredentials(JOB);
        JobTokens tokens = tokens(false);
        tokens.add(JOB, token.getPassword(), "alice");

        assertEquals(Verdict.OK, tokens.check(MapOutputRegistration.signed(output(ATTEMPT), token)));
    }

    @Test
    void unknownJobAndBadProofGetExactErrors() {
        Token<JobTokenIdentifier> token = jobTokenFromTaskCredentials(JOB);
        Token<JobTokenIdentifier> otherJobsToken = jobTokenFromTaskCredentials(JOB);
        JobTokens tokens = tokens(false);

        assertEquals(Verdict.refused(Refusal.UNKNOWN_JOB, "unknown job " + JOB + ": no job token registered"),
                tokens.check(MapOutputRegistration.signed(output(ATTEMPT), token)));
        tokens.add(JOB, token.getPassword(), "alice");
        assertEquals(Verdict.refused(Refusal.BAD_PROOF,
                "map output registration for " + ATTEMPT + " refused: bad job token proof"),
                tokens.check(MapOutputRegistration.signed(output(ATTEMPT), otherJobsToken)));
    }

    @Test
    void aProofCoversEveryFieldAndCannotBeReplayedForAnotherRequest() {
        Token<JobTokenIdentifier> token = jobTokenFromTaskCredentials(JOB);
        JobTokens tokens = tokens(false);
        tokens.add(JOB, token.getPassword(), "alice");
        MapOutput real = output(ATTEMPT);
        byte[] proof = JobTokenProof.forMapOutput(token.getPassword(), real);

        List<MapOutput> altered = List.of(
                new MapOutput(JOB, "attempt_1700000000000_0002_m_000003_1", 2),
                new MapOutput(JOB, ATTEMPT, 3));
        for (MapOutput o : altered) {
            assertEquals(false, tokens.check(new MapOutputRegistration(o, proof)).accepted(), o.toString());
        }
        JobSpec spec = new JobSpec(JOB, Map.of(), List.of());
        byte[] specProof = JobTokenProof.forSpec(token.getPassword(), spec);
        assertEquals(Verdict.OK, tokens.check(spec, specProof));
        assertEquals(false, tokens.check(new MapOutputRegistration(real, specProof)).accepted());
        assertEquals(Verdict.refused(Refusal.BAD_PROOF,
                "job spec registration for " + JOB + " refused: bad job token proof"),
                tokens.check(spec, proof));
    }

    @Test
    void proofIsHmacSha256OfTheDocumentedMessage() throws Exception {
        byte[] key = {1, 2, 3};
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
        byte[] expected = mac.doFinal(("camdoop-register-v2\n" + JOB + "\n" + ATTEMPT + "\n2").getBytes("UTF-8"));
        assertArrayEquals(expected, JobTokenProof.forMapOutput(key, output(ATTEMPT)));
    }

    @Test
    void trustOnFirstUseIsOffByDefaultAndGivesTheJobToTheFirstUserWhoNamesIt() {
        assertEquals(Verdict.refused(Refusal.UNKNOWN_JOB, "unknown job " + JOB + ": no job token registered"),
                tokens(false).authorise(JOB, "alice", "yarn"));
        JobTokens tofu = tokens(true);
        assertEquals(Verdict.OK, tofu.authorise(JOB, "alice", "yarn"));
        assertEquals(Verdict.OK, tofu.authorise(JOB, "alice", "yarn"));
        assertEquals(java.util.Optional.of("alice"), tofu.user(JOB));
        assertEquals(Verdict.refused(Refusal.REFUSED,
                "request for " + JOB + " from user mallory refused: the job belongs to user alice"),
                tofu.authorise(JOB, "mallory", "yarn"));
    }

    @Test
    void aJobWithATokenServesOnlyItsUserOrWithDaemonUserOnlyTheDaemonsUser() {
        JobTokens jobUser = tokens(false);
        jobUser.add(JOB, new byte[] {1}, "alice");
        assertEquals(Verdict.OK, jobUser.authorise(JOB, "alice", "yarn"));
        assertEquals(Verdict.refused(Refusal.REFUSED,
                "request for " + JOB + " from user mallory refused: the job belongs to user alice"),
                jobUser.authorise(JOB, "mallory", "yarn"));
        jobUser.add(JOB, new byte[] {1});
        assertEquals(Verdict.refused(Refusal.REFUSED,
                "request for " + JOB + " from user alice refused: the NodeManager reported no user for the job"),
                jobUser.authorise(JOB, "alice", "yarn"));

        Configuration conf = new Configuration(false);
        conf.set(JobsConfig.LOCAL_PEER_CHECK, "daemon-user");
        JobTokens daemonUser = new JobTokens(JobsConfig.from(conf));
        daemonUser.add(JOB, new byte[] {1}, "alice");
        assertEquals(Verdict.OK, daemonUser.authorise(JOB, "yarn", "yarn"));
        assertEquals(Verdict.refused(Refusal.REFUSED, "request for " + JOB + " from user alice refused: with"
                + " camdoop.daemon.local.peer-check=daemon-user only the daemon's user yarn may ask"),
                daemonUser.authorise(JOB, "alice", "yarn"));
    }

    @Test
    void theDaemonKnowsAtMostMaxJobs() {
        Configuration conf = new Configuration(false);
        conf.setInt(JobsConfig.MAX_JOBS, 1);
        conf.setBoolean(JobsConfig.JOB_TOKEN_TRUST_ON_FIRST_USE, true);
        JobTokens t = new JobTokens(JobsConfig.from(conf));
        t.add(JOB, new byte[] {1}, "alice");
        assertEquals("job token for job_1700000000000_0008 refused: the daemon already knows 1 jobs"
                + " (camdoop.daemon.jobs.max)", org.junit.jupiter.api.Assertions.assertThrows(
                        IllegalStateException.class, () -> t.add("job_1700000000000_0008", new byte[] {1}, "bob"))
                        .getMessage());
        assertEquals(Verdict.refused(Refusal.REFUSED, "request for job_1700000000000_0008 from user bob refused: the"
                + " daemon already knows 1 jobs (camdoop.daemon.jobs.max)"),
                t.authorise("job_1700000000000_0008", "bob", "yarn"));
    }

    /**
     * Found by review: with trust on first use any local user could name ids it never used, each holding one of
     * camdoop.daemon.jobs.max entries for good. Now ids must be canonical, and an owner whose job has not registered
     * for two housekeeping sweeps is forgotten (jobs with a token are kept: the NodeManager ends them).
     */
    @Test
    void ownersOnFirstUseOfJobsThatNeverRegisterAreForgottenAtTheSecondSweep() {
        JobTokens t = tokens(true);
        assertEquals(Verdict.refused(Refusal.MALFORMED, "request from user bob refused: not a job id: ../x"),
                t.authorise("../x", "bob", "yarn"));
        String squatted = "job_1700000000000_0101";
        String used = "job_1700000000000_0102";
        String later = "job_1700000000000_0103";
        assertEquals(Verdict.OK, t.authorise(squatted, "mallory", "yarn"));
        assertEquals(Verdict.OK, t.authorise(used, "alice", "yarn"));
        t.add(JOB, new byte[] {1}, "carol");
        java.util.function.Predicate<String> registered = used::equals;
        assertEquals(java.util.List.of(), t.forgetUnregisteredOwners(registered), "first sweep: only marked");
        assertEquals(Verdict.OK, t.authorise(later, "mallory", "yarn"));
        assertEquals(java.util.List.of(squatted), t.forgetUnregisteredOwners(registered));
        assertFalse(t.knows(squatted));
        assertTrue(t.knows(used) && t.knows(JOB) && t.knows(later), "registered, with a token, or new: kept");
        assertEquals(java.util.List.of(later), t.forgetUnregisteredOwners(registered));
        assertEquals(Verdict.OK, t.authorise(squatted, "alice", "yarn"), "a forgotten id is free to own again");
    }

    @Test
    void theNodeManagersUserIsKeptWithTheTokenAndMustBeOneDirectoryName() {
        JobTokens tokens = tokens(false);
        tokens.add(JOB, new byte[] {1}, "alice");
        assertEquals(java.util.Optional.of("alice"), tokens.user(JOB));
        tokens.remove(JOB);
        assertEquals(java.util.Optional.empty(), tokens.user(JOB));
        for (String bad : new String[] {"", "..", ".", "a/b", "a\nb", "-x"}) {
            assertEquals("not a usable user name: " + bad, org.junit.jupiter.api.Assertions.assertThrows(
                    IllegalArgumentException.class, () -> tokens.add(JOB, new byte[] {1}, bad)).getMessage());
        }
    }

    @Test
    void mapOutputRejectsAnAttemptOfAnotherJobOrAReduce() {
        assertEquals("attempt attempt_1700000000000_0009_m_000003_0 is not of job " + JOB,
                org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new MapOutput(JOB,
                        "attempt_1700000000000_0009_m_000003_0", 1)).getMessage());
        assertEquals("attempt attempt_1700000000000_0002_r_000003_0 is not a map attempt",
                org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new MapOutput(JOB,
                        "attempt_1700000000000_0002_r_000003_0", 1)).getMessage());
    }
}
