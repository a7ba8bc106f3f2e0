package org.camdoop.shuffle.daemon;

import java.nio.file.Path;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.util.DiskChecker;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryLocalPathHandler;
import org.camdoop.shuffle.jobs.JobsConfig;
import org.camdoop.shuffle.jobs.MapOutputLocator;
import org.camdoop.shuffle.daemon.status.CamdoopMetricsSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's own shuffle, unchanged, hosting a Camdoop daemon in the NodeManager: register it as
 * {@code yarn.nodemanager.aux-services.mapreduce_shuffle.class}. Everything {@link ShuffleHandler} does goes on as
 * before (it still serves every map output over HTTP, so a reducer that falls back to the stock shuffle finds it);
 * this subclass adds a {@link CamdoopDaemon} that starts and stops with it.
 *
 * <p>Why a subclass: the NodeManager hands each application's shuffle secret and user only to
 * {@code mapreduce_shuffle} (on Hadoop 3.5 the MapReduce ApplicationMaster gives other shuffle providers an empty
 * buffer), and ShuffleHandler keeps both for the application's life in {@link #secretManager} and {@link #userRsrc},
 * also after a NodeManager restart with recovery ({@code recoverState} in {@code serviceStart}). This class passes
 * what ShuffleHandler learned to the daemon ({@code JobTokens.add(job, secret, user)}) after ShuffleHandler's own
 * {@code initializeApplication} and after its recovery, and makes the daemon forget it in {@code stopApplication}. The
 * daemon looks for map outputs in the NodeManager's local dirs through the NodeManager's own path handler, as
 * ShuffleHandler does. Trust on first use is refused here: the NodeManager vouches for every job.
 *
 * <p>Threads: the NodeManager's service thread calls start and stop; its dispatcher threads call the application
 * methods; {@link #daemon} is volatile and every daemon method used here is thread-safe.
 */
public class CamdoopShuffleHandler extends ShuffleHandler {

    private static final Logger LOG = LoggerFactory.getLogger(CamdoopShuffleHandler.class);

    private volatile CamdoopDaemon daemon;
    // Written and read by the NodeManager's service thread only (start/stop).
    private CoordinateClaim claim;
    private boolean metricsRegistered;

    @Override
    protected void serviceStart() throws Exception {
        Configuration conf = new Configuration(getConfig());
        conf.addResource("camdoop-site.xml");
        if (JobsConfig.from(conf).trustOnFirstUse()) {
            throw new IllegalArgumentException(JobsConfig.JOB_TOKEN_TRUST_ON_FIRST_USE + "=true is refused in a"
                    + " NodeManager: the NodeManager hands the Camdoop daemon every job's secret; remove the key");
        }
        if (getAuxiliaryLocalPathHandler() == null) {
            // Loaded through aux-services.mapreduce_shuffle.classpath, Hadoop's class-loader wrapper keeps the
            // NodeManager's path handler from us (and from ShuffleHandler's HTTP fetches): search the local dirs.
            LOG.info("the NodeManager gave no local path handler: map outputs are found in {}",
                    String.join(",", conf.getTrimmedStrings(YarnConfiguration.NM_LOCAL_DIRS)));
            setAuxiliaryLocalPathHandler(new LocalDirsPathHandler(conf));
        }
        super.serviceStart(); // recovers the secrets and users of running applications after a restart
        String claimDir = conf.getTrimmed(DaemonConfig.CLAIM_DIR, DaemonConfig.DEFAULT_CLAIM_DIR);
        if (DaemonConfig.from(conf).coordinate().isEmpty() && !claimDir.isEmpty()) {
            claim = CoordinateClaim.claim(org.camdoop.torus.transport.Topology.load(Path.of(
                    DaemonConfig.from(conf).transport().topologyFile())), Path.of(claimDir));
            conf.set(DaemonConfig.COORDINATE, claim.coord().x() + "," + claim.coord().y() + "," + claim.coord().z());
            LOG.info("claimed coordinate {} in {}", claim.coord(), claimDir);
        }
        // The daemon's socket file (camdoop/daemon.socket) and jar cache live under the NodeManager's local dirs,
        // where tasks look for them from their container dirs (DaemonLocator).
        String[] nmDirs = conf.getTrimmedStrings(YarnConfiguration.NM_LOCAL_DIRS);
        if (nmDirs.length > 0) {
            conf.setStrings(JobsConfig.LOCAL_DIRS, nmDirs);
        }
        if (conf.get(JobsConfig.LOCAL_PEER_CHECK) == null) {
            // Who a task's process runs as follows from the NodeManager's container executor: the job's user under
            // LinuxContainerExecutor, the NodeManager's own user (the daemon's) under DefaultContainerExecutor.
            String executor = conf.get(YarnConfiguration.NM_CONTAINER_EXECUTOR, "");
            conf.set(JobsConfig.LOCAL_PEER_CHECK, executor.endsWith("LinuxContainerExecutor") ? "job-user"
                    : "daemon-user");
            LOG.info("local requests are checked against the {} ({} is {})", conf.get(JobsConfig.LOCAL_PEER_CHECK),
                    YarnConfiguration.NM_CONTAINER_EXECUTOR, executor.isEmpty() ? "the default" : executor);
        }
        CamdoopDaemon started;
        try {
            started = CamdoopDaemon.start(conf,
                    new MapOutputLocator(nodeManagerDirs(), MapOutputLocator.ownerRule(conf)));
        } catch (Exception e) {
            releaseClaim();
            throw e;
        }
        daemon = started;
        // In the NodeManager's metrics system: its JMX and sinks publish the daemon's figures with its own.
        try {
            org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.instance().register(CamdoopMetricsSource.NAME,
                    "the Camdoop daemon hosted by this NodeManager", new CamdoopMetricsSource(started::snapshot));
            metricsRegistered = true;
        } catch (org.apache.hadoop.metrics2.MetricsException e) {
            // e.g. several NodeManagers in one JVM outside Hadoop's mini-cluster mode: the shuffle does not need it.
            LOG.warn("the Camdoop daemon's metrics source is not registered: {}", e.getMessage());
        }
        int recovered = 0;
        int all = 0;
        for (String job : userRsrc.keySet()) {
            recovered += handOver(started, job) ? 1 : 0;
            all++;
        }
        if (all > 0) {
            LOG.info("handed {} of {} recovered applications' secrets to the Camdoop daemon", recovered, all);
        }
    }

    /** The NodeManager's local dirs as ShuffleHandler searches them: through the path handler. */
    private MapOutputLocator.LocalDirs nodeManagerDirs() {
        return relative -> {
            try {
                return Optional.of(Path.of(getAuxiliaryLocalPathHandler().getLocalPathForRead(relative).toUri()
                        .getPath()));
            } catch (DiskChecker.DiskErrorException notFound) {
                return Optional.empty();
            }
        };
    }

    @Override
    protected void serviceStop() throws Exception {
        try {
            CamdoopDaemon d = daemon;
            daemon = null;
            if (metricsRegistered) {
                metricsRegistered = false;
                org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.instance().unregisterSource(
                        CamdoopMetricsSource.NAME);
            }
            if (d != null) {
                d.close();
            }
            releaseClaim();
        } finally {
            super.serviceStop();
        }
    }

    private void releaseClaim() throws java.io.IOException {
        if (claim != null) {
            claim.release();
            claim = null;
        }
    }

    /** The hosted daemon while the service runs. */
    public CamdoopDaemon daemon() {
        CamdoopDaemon d = daemon;
        if (d == null) {
            throw new IllegalStateException("the Camdoop shuffle handler is not running");
        }
        return d;
    }

    @Override
    public void initializeApplication(ApplicationInitializationContext context) {
        super.initializeApplication(context);
        CamdoopDaemon d = daemon;
        if (d != null) {
            handOver(d, jobOf(context.getApplicationId()).toString());
        }
    }

    @Override
    public void stopApplication(ApplicationTerminationContext context) {
        super.stopApplication(context);
        String job = jobOf(context.getApplicationId()).toString();
        CamdoopDaemon d = daemon;
        if (d != null) {
            if (d.endJob(job)) {
                LOG.info("job {} ended: forgotten", job);
            }
            d.tokens().remove(job);
        }
    }

    /** Gives the daemon what ShuffleHandler holds for {@code job}; false (logged) if it holds nothing usable. */
    private boolean handOver(CamdoopDaemon d, String job) {
        String user = userRsrc.get(job);
        byte[] secret;
        try {
            secret = user == null ? null : secretManager.retrieveTokenSecret(job).getEncoded();
        } catch (SecretManager.InvalidToken e) {
            secret = null;
        }
        if (secret == null || secret.length == 0) {
            LOG.warn("{}: the NodeManager's shuffle holds no secret for it (unreadable application data?): its map"
                    + " outputs stay on the stock shuffle", job);
            return false;
        }
        try {
            d.tokens().add(job, secret, user);
            return true;
        } catch (IllegalArgumentException | IllegalStateException e) {
            // IllegalStateException: the daemon already knows camdoop.daemon.jobs.max jobs. Thrown out of the
            // recovery in serviceStart it would stop the NodeManager; one job left on the stock shuffle is better.
            LOG.warn("{}: not handed to the Camdoop daemon, its map outputs stay on the stock shuffle: {}", job,
                    e.getMessage());
            return false;
        }
    }

    /** The job of a YARN application, as ShuffleHandler derives it. */
    static JobID jobOf(ApplicationId app) {
        return new JobID(Long.toString(app.getClusterTimestamp()), app.getId());
    }
}
