package org.camdoop.shuffle.daemon;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputByteBuffer;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.camdoop.shuffle.protocol.AuxServiceName;
import org.camdoop.torus.transport.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hosts a {@link CamdoopDaemon} inside a NodeManager: add {@code camdoop_shuffle} to
 * {@code yarn.nodemanager.aux-services} with {@code yarn.nodemanager.aux-services.camdoop_shuffle.class} set to this
 * class. Thin: it starts and stops the daemon with the NodeManager and tells it about applications.
 *
 * <p>When the ApplicationMaster hands this service a job's shuffle secret, {@link #initializeApplication} gives it to
 * the daemon, and tasks prove their map-output registrations with the same secret
 * ({@code TokenCache.getShuffleSecretKey}). Observed on Hadoop 3.5.0: the MapReduce ApplicationMaster gives services
 * listed in {@code mapreduce.job.shuffle.provider.services} an <em>empty</em> buffer (only {@code mapreduce_shuffle}
 * receives the secret), so in practice the daemon must learn the secret another way; see docs/security.md and the
 * trust-on-first-use option {@code camdoop.daemon.job-token.trust-on-first-use} (single-user clusters only).
 */
public final class CamdoopAuxService extends AuxiliaryService {

    private static final Logger LOG = LoggerFactory.getLogger(CamdoopAuxService.class);

    // Written by the NodeManager's service thread in start/stop, read by its container-launch threads.
    private volatile CamdoopDaemon daemon;
    // Written and read by the NodeManager's service thread only (start/stop).
    private CoordinateClaim claim;

    public CamdoopAuxService() {
        super(AuxServiceName.NAME);
    }

    @Override
    protected void serviceStart() throws Exception {
        Configuration conf = new Configuration(getConfig());
        conf.addResource("camdoop-site.xml");
        String claimDir = conf.getTrimmed(DaemonConfig.CLAIM_DIR, DaemonConfig.DEFAULT_CLAIM_DIR);
        if (DaemonConfig.from(conf).coordinate().isEmpty() && !claimDir.isEmpty()) {
            claim = CoordinateClaim.claim(Topology.load(java.nio.file.Path.of(
                    DaemonConfig.from(conf).transport().topologyFile())), java.nio.file.Path.of(claimDir));
            conf.set(DaemonConfig.COORDINATE, claim.coord().x() + "," + claim.coord().y() + "," + claim.coord().z());
            LOG.info("claimed coordinate {} in {}", claim.coord(), claimDir);
        }
        // The daemon's socket file and jar cache live under the NodeManager's local dirs, where tasks look for them.
        String[] nmDirs = conf.getTrimmedStrings("yarn.nodemanager.local-dirs");
        if (nmDirs.length > 0) {
            conf.setStrings(DaemonConfig.LOCAL_DIRS, nmDirs);
        }
        try {
            daemon = CamdoopDaemon.start(conf);
        } catch (Exception e) {
            releaseClaim();
            throw e;
        }
        super.serviceStart();
    }

    @Override
    protected void serviceStop() throws Exception {
        CamdoopDaemon d = daemon;
        daemon = null;
        if (d != null) {
            d.close();
        }
        releaseClaim();
        super.serviceStop();
    }

    private void releaseClaim() throws IOException {
        if (claim != null) {
            claim.release();
            claim = null;
        }
    }

    /** The daemon while the service runs. */
    public CamdoopDaemon daemon() {
        CamdoopDaemon d = daemon;
        if (d == null) {
            throw new IllegalStateException("the Camdoop auxiliary service is not running");
        }
        return d;
    }

    @Override
    public void initializeApplication(ApplicationInitializationContext context) {
        JobID job = jobOf(context.getApplicationId());
        ByteBuffer data = context.getApplicationDataForService();
        if (data == null || !data.hasRemaining()) {
            // Hadoop 3.5's MapReduce ApplicationMaster gives external shuffle providers an empty buffer.
            LOG.warn("application {} brought no shuffle secret for {}: its tasks' map-output registrations are accepted"
                    + " only with camdoop.daemon.job-token.trust-on-first-use (see docs/security.md)", job,
                    AuxServiceName.NAME);
            return;
        }
        try {
            daemon().tokens().add(job.toString(), secretOf(data), context.getUser());
        } catch (IOException e) {
            LOG.warn("application {}: unreadable shuffle secret: {}", job, e.getMessage());
        }
    }

    @Override
    public void stopApplication(ApplicationTerminationContext context) {
        JobID job = jobOf(context.getApplicationId());
        CamdoopDaemon d = daemon;
        if (d != null && d.endJob(job.toString())) {
            LOG.info("job {} ended: forgotten", job);
        }
        if (d != null) {
            d.tokens().remove(job.toString());
        }
    }

    @Override
    public ByteBuffer getMetaData() {
        return ByteBuffer.allocate(0);
    }

    /** The job of a YARN application, as the stock ShuffleHandler derives it. */
    static JobID jobOf(ApplicationId app) {
        return new JobID(Long.toString(app.getClusterTimestamp()), app.getId());
    }

    /** Reads the token the ApplicationMaster serialised (ShuffleHandler.serializeServiceData's format). */
    static byte[] secretOf(ByteBuffer data) throws IOException {
        DataInputByteBuffer in = new DataInputByteBuffer();
        in.reset(data.duplicate());
        Token<JobTokenIdentifier> token = new Token<>();
        token.readFields(in);
        return token.getPassword();
    }
}
