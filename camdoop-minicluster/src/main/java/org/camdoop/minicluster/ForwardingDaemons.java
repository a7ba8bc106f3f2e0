package org.camdoop.minicluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.camdoop.shuffle.daemon.CamdoopDaemon;
import org.camdoop.shuffle.daemon.DaemonConfig;
import org.camdoop.shuffle.jobs.JobsConfig;
import org.camdoop.torus.topology.Coord;

/**
 * The daemons at torus coordinates no NodeManager takes: they route and aggregate in-network like any other daemon
 * but never hold map outputs or reducers. They run in this JVM: Maven gives it a single Netty (4.2, our netty-bom
 * manages Hadoop's netty-all too), so they need no class-loader isolation here.
 */
final class ForwardingDaemons implements AutoCloseable {

    private final List<CamdoopDaemon> daemons;

    private ForwardingDaemons(List<CamdoopDaemon> daemons) {
        this.daemons = daemons;
    }

    /** Starts one daemon per coordinate from {@code base} (topology file and secret set) plus its coordinate. */
    static ForwardingDaemons start(Configuration base, List<Coord> coords) throws IOException, InterruptedException {
        List<CamdoopDaemon> started = new ArrayList<>();
        try {
            for (Coord c : coords) {
                Configuration conf = new Configuration(base);
                conf.set(DaemonConfig.COORDINATE, TorusLayout.coordText(c));
                // One jar cache per daemon: they are separate servers that happen to share a machine.
                conf.set(JobsConfig.JAR_CACHE_DIR, base.get(JobsConfig.JAR_CACHE_DIR) + "/" + c.x() + "_" + c.y() + "_" + c.z());
                // And its own local dirs (socket and socket file).
                conf.set(JobsConfig.LOCAL_DIRS, base.get(JobsConfig.JAR_CACHE_DIR) + "/local-" + c.x() + "_" + c.y() + "_"
                        + c.z());
                started.add(CamdoopDaemon.start(conf));
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            new ForwardingDaemons(started).close();
            throw e;
        }
        return new ForwardingDaemons(started);
    }

    int count() {
        return daemons.size();
    }

    @Override
    public void close() throws InterruptedException {
        for (CamdoopDaemon d : daemons) {
            d.close();
        }
        daemons.clear();
    }
}
