package org.camdoop.examples.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.camdoop.shuffle.daemon.DaemonMain;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code camdoop daemon}: runs one Camdoop daemon in the foreground ({@code scripts/camdoop-daemon.sh} backgrounds it). */
@Command(name = "daemon", mixinStandardHelpOptions = true,
        description = {"Run one Camdoop daemon in the foreground until stopped (SIGTERM).",
            "Reads CONF_DIR/camdoop-site.xml: camdoop.topology.file, camdoop.cluster.secret, camdoop.daemon.coordinate, ..."})
public final class DaemonCommand implements Callable<Integer> {

    @Option(names = "--conf", paramLabel = "CONF_DIR", defaultValue = "${env:CAMDOOP_CONF_DIR:-conf}",
            description = "Directory holding camdoop-site.xml (default: $CAMDOOP_CONF_DIR, else conf).")
    Path conf;

    @Override
    public Integer call() throws Exception {
        // Before any logger exists: the daemon's log is for operators (links up and down, jobs, shuffles).
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                System.getProperty("camdoop.log.level", "info"));
        return DaemonMain.run(conf);
    }
}
