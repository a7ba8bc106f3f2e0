package org.camdoop.shuffle.protocol;

import java.util.Arrays;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.security.token.Token;

/**
 * What a map task sends its local daemon when its final output exists: the {@link MapOutput} and a
 * {@link JobTokenProof} that the sender holds the job's token. Immutable (the proof is copied in and out).
 */
public final class MapOutputRegistration {
    private final MapOutput output;
    private final byte[] proof;

    public MapOutputRegistration(MapOutput output, byte[] proof) {
        this.output = output;
        this.proof = proof.clone();
    }

    /**
     * The registration of {@code output}, signed with the job token from the task's credentials
     * ({@code TokenCache.getJobToken(credentials)}).
     */
    public static MapOutputRegistration signed(MapOutput output, Token<JobTokenIdentifier> jobToken) {
        return new MapOutputRegistration(output, JobTokenProof.forMapOutput(jobToken.getPassword(), output));
    }

    public MapOutput output() {
        return output;
    }

    public byte[] proof() {
        return proof.clone();
    }

    @Override
    public String toString() {
        return "MapOutputRegistration(" + output + ", proof " + proof.length + " bytes)";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MapOutputRegistration other && output.equals(other.output)
                && Arrays.equals(proof, other.proof);
    }

    @Override
    public int hashCode() {
        return output.hashCode() * 31 + Arrays.hashCode(proof);
    }
}
