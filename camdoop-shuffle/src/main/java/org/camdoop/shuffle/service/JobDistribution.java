package org.camdoop.shuffle.service;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.camdoop.shuffle.protocol.JarDigest;

/**
 * What the spec broadcast needs from a daemon's job knowledge, so the service never sees the job registry: the spec
 * and jars of a job this daemon serves (to send), and the admission of a spec and jars received from a peer. The
 * daemon implements it over its {@code JobRegistry} and {@code JarCache}. Implementations are thread-safe.
 */
public interface JobDistribution {

    /** A job's spec as it travels ({@code JobSpecCodec} form), with the digests of the jars it names. */
    record EncodedSpec(String jobId, byte[] bytes, List<JarDigest> jars) {
        public EncodedSpec {
            jars = List.copyOf(jars);
        }
    }

    /** The result of offering a received spec to the daemon. */
    sealed interface Admission permits Registered, NeedsJars, Refused {
    }

    /** The job is now served here (or already was, with the same spec). */
    record Registered(String jobId) implements Admission {
    }

    /** The spec is fine but these jars are not cached yet: store them, then offer the spec again. */
    record NeedsJars(List<JarDigest> missing) implements Admission {
        public NeedsJars {
            missing = List.copyOf(missing);
        }
    }

    /** The job will not be served here; {@code reason} says why. */
    record Refused(String reason) implements Admission {
    }

    /** The spec of {@code jobId} if this daemon serves it and can hand its spec on; empty otherwise. */
    Optional<EncodedSpec> specOf(String jobId);

    /** The bytes of a cached jar. @throws IOException if it is not cached or cannot be read */
    byte[] readJar(JarDigest digest) throws IOException;

    boolean hasJar(JarDigest digest);

    /**
     * Caches a jar received from a peer.
     *
     * @throws NoRoomYet if there is no room or upload slot for it now
     * @throws IOException if the bytes do not hash to {@code digest}
     */
    void storeJar(JarDigest digest, byte[] bytes) throws IOException;

    /**
     * A jar not stored for want of room or of an upload slot, not for what it is: the same jar may be taken later, so
     * its job is not refused for it.
     */
    final class NoRoomYet extends IOException {
        public NoRoomYet(String message) {
            super(message);
        }
    }

    /** Offers a spec received from a peer for job {@code jobId} (the spec must name the same job). */
    Admission admit(String jobId, byte[] encodedSpec);

    /** A daemon with nothing to distribute and that accepts nothing: every job must be known by other means. */
    JobDistribution NONE = new JobDistribution() {
        @Override
        public Optional<EncodedSpec> specOf(String jobId) {
            return Optional.empty();
        }

        @Override
        public byte[] readJar(JarDigest digest) throws IOException {
            throw new IOException("jar " + digest + " is not cached here");
        }

        @Override
        public boolean hasJar(JarDigest digest) {
            return false;
        }

        @Override
        public void storeJar(JarDigest digest, byte[] bytes) throws IOException {
            throw new IOException("this daemon accepts no jars from peers");
        }

        @Override
        public Admission admit(String jobId, byte[] encodedSpec) {
            return new Refused("this daemon accepts no job specs from peers");
        }
    };
}
