package org.camdoop.shuffle.hadoop;

import java.io.IOException;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;

/**
 * The secret a task proves itself with: the job's shuffle secret, which the ApplicationMaster also hands the
 * NodeManager's auxiliary services; when the job has none, the job token's password, exactly as the AM falls back
 * (TaskAttemptImpl). Stateless.
 */
final class TaskSecrets {
    private TaskSecrets() {}

    /** @throws IOException if the task's credentials hold neither */
    static byte[] shuffleSecret(JobConf job) throws IOException {
        byte[] secret = of(job.getCredentials());
        if (secret == null) {
            secret = of(UserGroupInformation.getCurrentUser().getCredentials());
        }
        if (secret == null) {
            throw new IOException("the task's credentials hold neither a shuffle secret nor a job token");
        }
        return secret;
    }

    private static byte[] of(Credentials credentials) {
        if (credentials == null) {
            return null;
        }
        byte[] secret = TokenCache.getShuffleSecretKey(credentials);
        if (secret != null && secret.length > 0) {
            return secret;
        }
        Token<JobTokenIdentifier> token = TokenCache.getJobToken(credentials);
        return token == null ? null : token.getPassword();
    }
}
