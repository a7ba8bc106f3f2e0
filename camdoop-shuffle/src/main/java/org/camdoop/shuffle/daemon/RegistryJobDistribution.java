package org.camdoop.shuffle.daemon;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Optional;
import org.camdoop.shuffle.jobs.JarCache;
import org.camdoop.shuffle.jobs.JobRegistry;
import org.camdoop.shuffle.jobs.RegisterOutcome;
import org.camdoop.shuffle.jobs.RegisteredJob;
import org.camdoop.shuffle.protocol.JarDigest;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobSpecCodec;
import org.camdoop.shuffle.protocol.MalformedJobSpecException;
import org.camdoop.shuffle.service.JobDistribution;

/**
 * The spec broadcast's view of a daemon's jobs: specs come from, and received specs go to, the {@link JobRegistry}
 * ({@code registerFromPeer}: the broadcast arrives over links authenticated with the cluster secret); jars from and to
 * the {@link JarCache}, which checks every received jar's digest. Stateless; thread-safe as the registry and cache are.
 */
public final class RegistryJobDistribution implements JobDistribution {

    private final JobRegistry registry;
    private final JarCache jars;

    public RegistryJobDistribution(JobRegistry registry, JarCache jars) {
        this.registry = registry;
        this.jars = jars;
    }

    @Override
    public Optional<EncodedSpec> specOf(String jobId) {
        return registry.lookup(jobId).map(RegisteredJob::spec)
                .map(spec -> new EncodedSpec(jobId, JobSpecCodec.encode(spec), spec.jars()));
    }

    @Override
    public byte[] readJar(JarDigest digest) throws IOException {
        return Files.readAllBytes(jars.path(digest)
                .orElseThrow(() -> new IOException("jar " + digest + " is not in the jar cache")));
    }

    @Override
    public boolean hasJar(JarDigest digest) {
        return jars.has(digest);
    }

    @Override
    public void storeJar(JarDigest digest, byte[] bytes) throws IOException {
        try {
            jars.put(digest, bytes);
        } catch (JarCache.FullException e) {
            throw new JobDistribution.NoRoomYet(e.getMessage());
        }
    }

    @Override
    public Admission admit(String jobId, byte[] encodedSpec) {
        JobSpec spec;
        try {
            spec = JobSpecCodec.decode(encodedSpec);
        } catch (MalformedJobSpecException e) {
            return new Refused("malformed job spec: " + e.getMessage());
        }
        if (!spec.jobId().equals(jobId)) {
            return new Refused("the spec sent for " + jobId + " is the spec of " + spec.jobId());
        }
        RegisterOutcome outcome = registry.registerFromPeer(spec);
        return switch (outcome.kind()) {
            case REGISTERED, ALREADY_REGISTERED -> new Registered(jobId);
            case MISSING_JARS -> new NeedsJars(outcome.missingJars());
            case REFUSED -> new Refused(outcome.message());
        };
    }
}
