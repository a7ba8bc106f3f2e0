package org.camdoop.shuffle.service.net;

import java.util.Arrays;

/**
 * What the reduce task proved to the root daemon when it asked for a shuffle: the root's nonce and the task's job
 * token proof over it ({@code JobTokenProof.forShuffle}). The root forwards both in its torus START, so every daemon
 * that holds the job's token can check the START comes from a holder of the token. {@link #NONE} for shuffles started
 * in process (local mode, benchmarks), which no daemon holding a token accepts.
 */
public record StartProof(byte[] nonce, byte[] proof) {
    /** Longest nonce or proof carried. */
    public static final int MAX_BYTES = 64;
    public static final StartProof NONE = new StartProof(new byte[0], new byte[0]);

    public StartProof {
        if (nonce.length > MAX_BYTES || proof.length > MAX_BYTES) {
            throw new IllegalArgumentException("start proof parts over " + MAX_BYTES + " bytes");
        }
        nonce = nonce.clone();
        proof = proof.clone();
    }

    public boolean isNone() {
        return proof.length == 0;
    }

    @Override
    public byte[] nonce() {
        return nonce.clone();
    }

    @Override
    public byte[] proof() {
        return proof.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StartProof p && Arrays.equals(nonce, p.nonce) && Arrays.equals(proof, p.proof);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(nonce) + Arrays.hashCode(proof);
    }

    @Override
    public String toString() {
        return isNone() ? "no proof" : "a proof over a " + nonce.length + "-byte nonce";
    }

    /** Checks a torus START against the job's token; see {@code JobTokens.checkTorusStart}. */
    @FunctionalInterface
    public interface Check {
        /** @return null if the START may run here, else the exact reason it may not */
        String refusal(org.camdoop.shuffle.protocol.ShuffleSpec spec, StartProof proof);

        Check ACCEPT_ALL = (spec, proof) -> null;
    }
}
