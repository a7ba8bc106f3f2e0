package org.camdoop.shuffle.jobs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.aggregation.MapOutputFiles;
import org.camdoop.shuffle.aggregation.MapOutputRefusedException;
import org.camdoop.shuffle.protocol.JobSpec;
import org.camdoop.shuffle.protocol.JobTokenProof;
import org.camdoop.shuffle.protocol.MapOutput;
import org.camdoop.shuffle.protocol.MapOutputRegistration;
import org.camdoop.shuffle.protocol.Refusal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jobs this daemon serves: registration of job specs (from a task of the job, with a job token proof, or from
 * another daemon over the authenticated torus), lookup, the map outputs registered by local map tasks, and cleanup
 * when a job ends or has been idle for {@link JobsConfig#JOB_IDLE_TIMEOUT_MS}. The registry has no threads: the daemon
 * calls {@link #expireIdle()} periodically, and time comes from the context's clock.
 *
 * <p>Thread-safe with one lock, {@link #lock}, guarding {@link #jobs} and everything inside its entries. Job code
 * (class initializers run while the aggregation spec is built) and class loader closing run outside the lock. Lock
 * order: {@link #lock} may be held while calling into {@link JarCache} and {@link JobTokens}, never the reverse.
 *
 * <p>Cleanup closes the job's class loader, releases its jars in the cache, drops its map output records and (when
 * the job ended, not when it was merely idle) its job token. It never deletes Hadoop's map output files: the
 * NodeManager owns them.
 */
public final class JobRegistry implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JobRegistry.class);

    private final JobRegistryContext context;
    private final Object lock = new Object();
    /** Job id to entry. Guarded by {@link #lock}. */
    private final Map<String, Entry> jobs = new HashMap<>();

    /** One registered job's mutable state; every field is guarded by the registry's {@link #lock}. */
    private static final class Entry {
        final RegisteredJob job;
        final JarLease lease;
        /** Attempt id to its checked files, in registration order. */
        final Map<String, MapOutputFiles> outputs = new LinkedHashMap<>();
        long lastActivityMs;

        Entry(RegisteredJob job, JarLease lease, long now) {
            this.job = job;
            this.lease = lease;
            this.lastActivityMs = now;
        }
    }

    public JobRegistry(JobRegistryContext context) {
        this.context = context;
    }

    /** Registers {@code spec} sent by a task of the job, with its proof of the job token ({@link JobTokenProof}). */
    public RegisterOutcome registerFromTask(JobSpec spec, byte[] specProof) {
        Verdict proof = context.tokens().check(spec, specProof);
        return proof.accepted() ? register(spec) : RegisterOutcome.refused(proof.refusal().get(), proof.reason());
    }

    /**
     * Registers {@code spec} received from another daemon. The caller vouches that it arrived over a link
     * authenticated with the cluster secret; the spec's jars are still checked by digest when they enter the cache.
     */
    public RegisterOutcome registerFromPeer(JobSpec spec) {
        return register(spec);
    }

    private RegisterOutcome register(JobSpec spec) {
        String jobId = spec.jobId();
        UserCodeDecision decision;
        JarLease lease;
        synchronized (lock) {
            Optional<RegisterOutcome> known = knownOutcome(spec);
            if (known.isPresent()) {
                return known.get();
            }
            if (jobs.size() >= context.config().maxJobs()) {
                return RegisterOutcome.refused("job " + jobId + " refused: " + jobs.size() + " jobs are registered ("
                        + JobsConfig.MAX_JOBS + ")");
            }
            decision = context.policy().decide(spec);
            if (decision.kind() == UserCodeDecision.Kind.REFUSE) {
                return RegisterOutcome.refused(decision.reason());
            }
            Optional<JarLease> pinned = context.jars().tryAcquire(spec.jars());
            if (pinned.isEmpty()) {
                return RegisterOutcome.missing(jobId, context.jars().missing(spec.jars()));
            }
            lease = pinned.get();
        }
        JobClassLoader loader = JobClassLoader.open(jobId, lease.files(), context.daemonLoader());
        JobAggregationSpec aggregation;
        try {
            aggregation = JobAggregationSpec.fromJob(jobConf(spec, decision, loader));
        } catch (RuntimeException | LinkageError e) {
            release(loader, lease);
            return RegisterOutcome.refused("job " + jobId + " refused: " + causes(e));
        }
        RegisteredJob job = new RegisteredJob(spec, decision, loader, aggregation);
        synchronized (lock) {
            Optional<RegisterOutcome> raced = knownOutcome(spec);
            if (raced.isEmpty()) {
                jobs.put(jobId, new Entry(job, lease, context.clock().millis()));
                LOG.info("registered {}: {}", jobId, decision.reason());
                return RegisterOutcome.registered(job, false);
            }
            release(loader, lease);
            return raced.get();
        }
    }

    /** The outcome for a spec whose job is already registered, touching it. Caller holds {@link #lock}. */
    private Optional<RegisterOutcome> knownOutcome(JobSpec spec) {
        Entry e = jobs.get(spec.jobId());
        if (e == null) {
            return Optional.empty();
        }
        if (!e.job.spec().equals(spec)) {
            return Optional.of(RegisterOutcome.refused("job " + spec.jobId()
                    + " is already registered with a different spec"));
        }
        e.lastActivityMs = context.clock().millis();
        return Optional.of(RegisterOutcome.registered(e.job, true));
    }

    /** The job's configuration with its loader; merge only drops the combiner keys so those classes never load. */
    private static JobConf jobConf(JobSpec spec, UserCodeDecision decision, JobClassLoader loader) {
        JobConf conf = spec.toJobConf();
        if (decision.kind() == UserCodeDecision.Kind.MERGE_ONLY) {
            conf.unset(JobSpec.OLD_API_COMBINER);
            conf.unset(MRJobConfig.COMBINE_CLASS_ATTR);
            conf.unset(MRJobConfig.COMBINER_GROUP_COMPARATOR_CLASS);
        }
        conf.setClassLoader(loader);
        return conf;
    }

    /** The registered job {@code jobId}, touching it (use counts as activity). */
    public Optional<RegisteredJob> lookup(String jobId) {
        synchronized (lock) {
            Entry e = jobs.get(jobId);
            if (e == null) {
                return Optional.empty();
            }
            e.lastActivityMs = context.clock().millis();
            return Optional.of(e.job);
        }
    }

    /** Marks {@code jobId} active now (the daemon calls this for jobs with open streams); false if not registered. */
    public boolean touch(String jobId) {
        return lookup(jobId).isPresent();
    }

    /**
     * Records a local map attempt's final output after checking its job token proof and its files: the daemon derives
     * their paths from the job's user, application and attempt ({@link MapOutputLocator}) and checks them (regular
     * files of the job's containers' user, an index of exactly the job's partitions). The job's spec must be
     * registered first. Registering the same attempt again is a no-op; another attempt of the same map task (retry,
     * speculation) is recorded separately, since the reduce side decides which attempts count. The files are checked
     * outside {@link #lock}.
     */
    public MapOutputOutcome registerMapOutput(MapOutputRegistration registration) {
        Verdict proof = context.tokens().check(registration);
        if (!proof.accepted()) {
            return MapOutputOutcome.refused(proof.refusal().get(), proof.reason());
        }
        MapOutput out = registration.output();
        Optional<String> user = context.tokens().user(out.jobId());
        if (user.isEmpty()) {
            return MapOutputOutcome.refused(Refusal.UNKNOWN_JOB, "unknown job " + out.jobId()
                    + ": no job token registered");
        }
        synchronized (lock) {
            Entry e = jobs.get(out.jobId());
            if (e == null) {
                return refused("map output registration for " + out.attemptId() + " refused: job " + out.jobId()
                        + " is not registered with this daemon");
            }
            int reduces = e.job.aggregation().job().getNumReduceTasks();
            if (out.partitions() != reduces) {
                return refused("map output registration for " + out.attemptId() + " refused: it has "
                        + out.partitions() + " partitions, job " + out.jobId() + " has " + reduces + " reduces");
            }
            e.lastActivityMs = context.clock().millis();
            if (e.outputs.containsKey(out.attemptId())) {
                return MapOutputOutcome.duplicate(out.attemptId() + " already recorded");
            }
            if (e.outputs.size() >= context.config().maxMapOutputsPerJob()) {
                return overCap(out);
            }
        }
        MapOutputFiles files;
        try {
            files = context.outputs().locate(user.get(), out);
        } catch (IOException | RuntimeException e) {
            String why = "map output registration for " + out.attemptId() + " refused: "
                    + (e instanceof MapOutputRefusedException r ? r.reason() : e.toString());
            LOG.warn(why);
            return refused(why);
        }
        synchronized (lock) {
            Entry e = jobs.get(out.jobId());
            if (e == null) {
                return refused("map output registration for " + out.attemptId() + " refused: job " + out.jobId()
                        + " ended while its files were checked");
            }
            e.lastActivityMs = context.clock().millis();
            if (e.outputs.size() >= context.config().maxMapOutputsPerJob() && !e.outputs.containsKey(out.attemptId())) {
                return overCap(out); // others registered while the files were checked
            }
            MapOutputFiles before = e.outputs.putIfAbsent(out.attemptId(), files);
            return before == null ? MapOutputOutcome.accepted(out.attemptId() + " recorded")
                    : MapOutputOutcome.duplicate(out.attemptId() + " already recorded");
        }
    }

    private MapOutputOutcome overCap(MapOutput out) {
        int cap = context.config().maxMapOutputsPerJob();
        return refused("map output registration for " + out.attemptId() + " refused: job " + out.jobId()
                + " already has " + cap + " map outputs registered (" + JobsConfig.MAX_MAP_OUTPUTS_PER_JOB + ")");
    }

    private static MapOutputOutcome refused(String message) {
        return MapOutputOutcome.refused(Refusal.REFUSED, message);
    }

    /** The checked map output files recorded for {@code jobId}, in registration order; empty if not registered. */
    public List<MapOutputFiles> mapOutputs(String jobId) {
        synchronized (lock) {
            Entry e = jobs.get(jobId);
            return e == null ? List.of() : List.copyOf(e.outputs.values());
        }
    }

    /**
     * The job ended (CamdoopShuffleHandler's {@code stopApplication}, or the standalone client's job end): cleans it
     * up and forgets its job token. Returns whether it was registered.
     */
    public boolean unregister(String jobId) {
        Entry e;
        synchronized (lock) {
            e = jobs.remove(jobId);
            context.tokens().remove(jobId);
        }
        if (e != null) {
            release(e.job.classLoader(), e.lease);
            LOG.info("unregistered {}", jobId);
        }
        return e != null;
    }

    /**
     * Cleans up every job with no activity for the idle timeout and returns their ids. Their job tokens are kept (the
     * application may still be running; a later task re-registers the job).
     */
    public List<String> expireIdle() {
        long now = context.clock().millis();
        List<Entry> expired = new ArrayList<>();
        synchronized (lock) {
            jobs.values().removeIf(e -> {
                boolean idle = now - e.lastActivityMs >= context.config().idleTimeoutMs();
                if (idle) {
                    expired.add(e);
                }
                return idle;
            });
        }
        List<String> ids = new ArrayList<>();
        for (Entry e : expired) {
            release(e.job.classLoader(), e.lease);
            ids.add(e.job.jobId());
            LOG.info("expired idle job {}", e.job.jobId());
        }
        return ids;
    }

    /** Ids of the registered jobs. */
    public List<String> jobIds() {
        synchronized (lock) {
            return List.copyOf(jobs.keySet());
        }
    }

    /** Daemon shutdown: cleans up every job. */
    @Override
    public void close() {
        for (String jobId : jobIds()) {
            unregister(jobId);
        }
    }

    /** The throwable and its causes on one line: a class initializer's failure hides in the cause. */
    private static String causes(Throwable t) {
        StringBuilder b = new StringBuilder(t.toString());
        for (Throwable c = t.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            b.append("; caused by ").append(c);
        }
        return b.toString();
    }

    private static void release(JobClassLoader loader, JarLease lease) {
        try {
            loader.close();
        } catch (RuntimeException e) {
            LOG.warn("closing {} failed", loader, e);
        } finally {
            lease.close();
        }
    }
}
