package org.camdoop.torus.transport.link;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.transport.wire.FrameLayout;

/**
 * Proof of the shared cluster secret without sending it: HMAC-SHA256 keyed by the secret over a role label, the
 * prover's coordinate and incarnation (as its HELLO announced them), the verifier's coordinate and incarnation (as the
 * verifier's HELLO announced them) and both nonces (the verifier's first). The role label stops a reflected proof being
 * accepted; the verifier's fresh nonce stops a replayed one; the incarnation in the proof stops a relay between two
 * daemons passing off an old process as a restarted one. The verifier's coordinate says whom the proof is for: without
 * it a process squatting on a dead neighbour's port could hand another daemon's nonce to the dialer and relay the
 * dialer's proof to that daemon, which would take the relay for the dialer (protocol version 6).
 */
public final class HandshakeProof {

    /** Which side of the connection proves. */
    public enum Role { DIALER, ACCEPTOR }

    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * Shortest cluster secret accepted, in UTF-8 bytes: an HMAC proof is only as strong as the secret behind it, and a
     * short one could be guessed offline from a recorded handshake.
     */
    public static final int MIN_SECRET_BYTES = 32;

    private final SecretKeySpec key;

    /** @throws IllegalArgumentException if the secret is shorter than {@link #MIN_SECRET_BYTES} */
    public HandshakeProof(String secret) {
        int n = secret == null ? 0 : secret.getBytes(StandardCharsets.UTF_8).length;
        if (n < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("the cluster secret has " + n + " bytes; at least " + MIN_SECRET_BYTES
                    + " are required");
        }
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    public static byte[] newNonce() {
        byte[] n = new byte[FrameLayout.NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    /**
     * The proof {@code prover} sends to {@code verifier}. Both sides know everything it covers when it is made: the
     * dialer proves after the acceptor's HELLO, the acceptor after the dialer's HELLO and AUTH.
     */
    public byte[] prove(Role role, Coord prover, long proverIncarnation, Coord verifier, long verifierIncarnation,
            byte[] verifierNonce, byte[] proverNonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update(("camdoop-link-v" + FrameLayout.PROTOCOL_VERSION + ":" + role).getBytes(StandardCharsets.UTF_8));
            mac.update(party(prover, proverIncarnation));
            mac.update(party(verifier, verifierIncarnation));
            mac.update(verifierNonce);
            mac.update(proverNonce);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /** Constant-time check of a peer's proof; {@code verifier} is this daemon, as its own HELLO announced it. */
    public boolean verify(byte[] proof, Role role, Coord prover, long proverIncarnation, Coord verifier,
            long verifierIncarnation, byte[] verifierNonce, byte[] proverNonce) {
        return MessageDigest.isEqual(proof,
                prove(role, prover, proverIncarnation, verifier, verifierIncarnation, verifierNonce, proverNonce));
    }

    /** Fixed width (3 x i32 + i64), so the concatenation of the two parties is unambiguous. */
    private static byte[] party(Coord c, long incarnation) {
        return ByteBuffer.allocate(20).putInt(c.x()).putInt(c.y()).putInt(c.z()).putLong(incarnation).array();
    }
}
