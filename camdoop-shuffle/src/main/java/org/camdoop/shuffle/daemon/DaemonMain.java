package org.camdoop.shuffle.daemon;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;

/**
 * {@code java ... DaemonMain CONF_DIR}: runs one daemon in the foreground until the process is told to stop
 * (SIGTERM), reading {@code CONF_DIR/camdoop-site.xml}. {@code scripts/camdoop-daemon.sh} wraps it with pid and log
 * files. Exit status 2 with one line on a configuration error.
 */
public final class DaemonMain {

    private DaemonMain() {
    }

    public static void main(String[] args) throws Exception {
        Path conf = null;
        String coordinate = null;
        Path status = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--coordinate") && i + 1 < args.length) {
                coordinate = args[++i];
            } else if (args[i].equals("--status") && i + 1 < args.length) {
                status = Path.of(args[++i]);
            } else if (conf == null && !args[i].startsWith("--")) {
                conf = Path.of(args[i]);
            } else {
                conf = null;
                break;
            }
        }
        if (conf == null) {
            System.err.println("usage: DaemonMain CONF_DIR [--coordinate X,Y,Z] [--status FILE]   (CONF_DIR holds"
                    + " camdoop-site.xml; the coordinate overrides camdoop.daemon.coordinate; the status file lists"
                    + " this daemon's links, kept current)");
            System.exit(2);
        }
        System.exit(run(conf, coordinate, status));
    }

    /**
     * Runs a daemon configured by {@code confDir/camdoop-site.xml} until the JVM shuts down.
     *
     * @return 2 (after one line on stderr) when the configuration is wrong; otherwise returns only at shutdown, 0
     */
    public static int run(Path confDir) throws Exception {
        return run(confDir, null, null);
    }

    /**
     * As {@link #run(Path)}, with the coordinate (if not null) overriding the configured one, and the daemon's links
     * kept in {@code statusFile} (if not null) for {@code sbin/camdoop-daemons.sh check}.
     */
    public static int run(Path confDir, String coordinate, Path statusFile) throws Exception {
        Path site = confDir.resolve("camdoop-site.xml");
        if (!Files.isReadable(site)) {
            System.err.println("camdoop-daemon: cannot read " + site);
            return 2;
        }
        Configuration conf = new Configuration();
        conf.addResource(new org.apache.hadoop.fs.Path(site.toUri()));
        if (coordinate != null) {
            conf.set(DaemonConfig.COORDINATE, coordinate);
        }
        if (statusFile != null) {
            conf.set(DaemonConfig.STATUS_FILE, statusFile.toString());
        }
        CamdoopDaemon daemon;
        try {
            daemon = CamdoopDaemon.start(conf);
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println("camdoop-daemon: " + e.getMessage());
            return 2;
        }
        // Hadoop's metrics system, started as Hadoop's own daemons start theirs: JMX comes with it, and sinks named in
        // hadoop-metrics2.properties under the prefix "camdoop" (e.g. Ambari Metrics' timeline sink) get the figures.
        org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.initialize("camdoop").register(
                org.camdoop.shuffle.daemon.status.CamdoopMetricsSource.NAME, "this Camdoop daemon",
                new org.camdoop.shuffle.daemon.status.CamdoopMetricsSource(daemon::snapshot));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.shutdown();
                daemon.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                stopped.countDown();
            }
        }, "camdoop-shutdown"));
        stopped.await();
        return 0;
    }
}
