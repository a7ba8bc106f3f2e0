package org.camdoop.shuffle.daemon;

import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import org.camdoop.shuffle.jobs.JarCache;
import org.camdoop.shuffle.jobs.JobRegistry;
import org.camdoop.shuffle.jobs.JobRegistryContext;
import org.camdoop.shuffle.jobs.JobTokens;
import org.camdoop.shuffle.jobs.JobsConfig;
import org.camdoop.shuffle.protocol.ShuffleCodes;
import org.camdoop.shuffle.jobs.MapOutputLocator;
import org.camdoop.shuffle.jobs.RegisteredJob;
import org.camdoop.shuffle.service.AggregationSpecs;
import org.camdoop.shuffle.service.CamdoopService;
import org.camdoop.shuffle.service.MapOutputCatalog;
import org.camdoop.shuffle.service.ServiceContext;
import org.camdoop.shuffle.service.pacing.StreamPacer;
import org.camdoop.shuffle.service.vertex.LocalMapOutput;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.transport.TorusNode;

/**
 * The one way a daemon is put together above its transport: job tokens, the job registry over a jar cache, and the
 * shuffle service, all configured by {@link DaemonConfig} and {@link JobsConfig}. {@link CamdoopDaemon} assembles one
 * per process, {@link EmbeddedTorus} one per live coordinate; only where map outputs and job classes come from may
 * differ ({@link Sources}). Stateless.
 */
final class DaemonAssembly {

    /** One daemon's parts above its transport. */
    record Parts(JobTokens tokens, JarCache jars, JobRegistry registry, CamdoopService service) {
    }

    /** Where a daemon's service finds map outputs and job classes, given its registry. */
    interface Sources {
        MapOutputCatalog catalog(JobRegistry registry);

        AggregationSpecs specs(JobRegistry registry);
    }

    /** A standalone daemon's sources: the map outputs and jobs its tasks registered. */
    static final Sources REGISTRY = new Sources() {
        @Override
        public MapOutputCatalog catalog(JobRegistry registry) {
            return jobId -> registry.mapOutputs(jobId).stream().map(LocalMapOutput::of).toList();
        }

        @Override
        public AggregationSpecs specs(JobRegistry registry) {
            return jobId -> registry.lookup(jobId).map(RegisteredJob::aggregation);
        }
    };

    private DaemonAssembly() {}

    /**
     * Assembles a daemon on {@code node}.
     *
     * @param outputs  where the map outputs its tasks register are ({@link MapOutputLocator#nowhere()} where none are)
     * @param vertices the threads its vertices run on
     * @param timer    runs its timeouts (spec waits, START re-sends)
     * @param pacer    paces its streams ({@link StreamPacer#NONE} but in benchmarks on an emulated switch)
     */
    static Parts assemble(DaemonConfig daemon, JobsConfig jobs, JarCache jars, MapOutputLocator outputs, TorusNode node,
            FailureView view, ExecutorService vertices, ScheduledExecutorService timer, StreamPacer pacer, Sources sources) {
        JobTokens tokens = new JobTokens(jobs);
        JobRegistry registry = new JobRegistry(JobRegistryContext.of(jobs, jars, tokens, outputs, Clock.systemUTC()));
        CamdoopService service = new CamdoopService(new ServiceContext(node, sources.catalog(registry),
                sources.specs(registry), vertices, view, daemon.pumpRecords(), daemon.rootChunks(),
                new RegistryJobDistribution(registry, jars), timer, daemon.specWaitMs(), pacer, daemon.serviceLimits()));
        // Daemons that hold a job's token accept its shuffles only from a root that proves a task of the job asked.
        service.checkStartsWith((spec, proof) -> tokens.checkTorusStart(spec.jobId(), spec.partition(),
                spec.attempt(), ShuffleCodes.code(spec.mode()), ShuffleCodes.code(spec.trees()),
                spec.expectedAttempts(), proof.nonce(), proof.proof()));
        return new Parts(tokens, jars, registry, service);
    }
}
