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
        if (args.length != 1) {
            System.err.println("usage: DaemonMain CONF_DIR   (the directory holding camdoop-site.xml)");
            System.exit(2);
        }
        System.exit(run(Path.of(args[0])));
    }

    /**
     * Runs a daemon configured by {@code confDir/camdoop-site.xml} until the JVM shuts down.
     *
     * @return 2 (after one line on stderr) when the configuration is wrong; otherwise returns only at shutdown, 0
     */
    public static int run(Path confDir) throws Exception {
        Path site = confDir.resolve("camdoop-site.xml");
        if (!Files.isReadable(site)) {
            System.err.println("camdoop-daemon: cannot read " + site);
            return 2;
        }
        Configuration conf = new Configuration();
        conf.addResource(new org.apache.hadoop.fs.Path(site.toUri()));
        CamdoopDaemon daemon;
        try {
            daemon = CamdoopDaemon.start(conf);
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println("camdoop-daemon: " + e.getMessage());
            return 2;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
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
