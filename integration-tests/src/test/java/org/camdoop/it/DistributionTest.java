package org.camdoop.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution as an operator gets it: the tarball's layout and class path, and its scripts starting, checking and
 * stopping two daemons of a 2x1x1 torus on this host (the "remote" command is empty: run here).
 */
@Timeout(180)
class DistributionTest {

    /** Nothing of the benchmarks, the simulator, the mini cluster or the tests may reach the daemon's class path. */
    private static final Pattern NOT_IN_LIB = Pattern.compile(
            "jmh|xchart|picocli|junit|camdoop-(bench|sim|minicluster|workload|cli)|hadoop-minicluster|mockito");

    @TempDir
    Path dir;

    @Test
    void theTarballHoldsTheScriptsTheDaemonsClassPathAndTheShadedJar() throws Exception {
        Path home = Distribution.unpack(dir);
        assertTrue(Files.isExecutable(home.resolve("bin/camdoop")));
        assertTrue(Files.isExecutable(home.resolve("sbin/camdoop-daemon.sh")));
        assertTrue(Files.isExecutable(home.resolve("sbin/camdoop-daemons.sh")));
        assertTrue(Files.isRegularFile(home.resolve("conf/camdoop-site.xml")));
        assertTrue(Files.isRegularFile(home.resolve("conf/topology.example")));
        List<String> lib = names(home.resolve("lib"));
        for (String needed : new String[] {"camdoop-shuffle-", "camdoop-torus-net-", "hadoop-common-",
            "hadoop-mapreduce-client-core-", "slf4j-simple-"}) {
            assertTrue(lib.stream().anyMatch(n -> n.startsWith(needed)), needed + " in lib/: " + lib);
        }
        assertEquals(List.of(), lib.stream().filter(n -> NOT_IN_LIB.matcher(n).find()).toList(), "lib/ holds only the"
                + " daemon's run-time class path");
        assertEquals(1, names(home.resolve("share/camdoop")).stream()
                .filter(n -> n.matches("camdoop-hadoop-.*\\.jar")).count(), "the shaded jar for tasks and NodeManagers");
        assertTrue(Distribution.run(home, Map.of(), "bin/camdoop", "version").out().startsWith("camdoop "));
    }

    @Test
    void theScriptsStartCheckAndStopTheDaemonsOfATopologyFile() throws Exception {
        Path home = Distribution.unpack(dir);
        Path conf = Files.createDirectories(dir.resolve("conf"));
        StringBuilder topology = new StringBuilder("shape 2x1x1\n");
        for (int x = 0; x < 2; x++) {
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                topology.append(x).append(",0,0 127.0.0.1:").append(probe.getLocalPort()).append('\n');
            }
        }
        Files.writeString(conf.resolve("topology"), topology);
        // Both daemons share this host and this file: their local dirs are told apart by the ident the script gives
        // each ($USER-x_y_z), which Hadoop's configuration reads from the environment.
        Files.writeString(conf.resolve("camdoop-site.xml"), "<configuration>\n"
                + property("camdoop.topology.file", conf.resolve("topology").toString())
                + property("camdoop.cluster.secret", "distribution-test-cluster-secret-32-bytes")
                + property("camdoop.daemon.local-dirs", dir.resolve("local-${env.CAMDOOP_IDENT_STRING}").toString())
                + property("camdoop.daemon.vertex.threads", "1")
                + "</configuration>\n");
        Map<String, String> env = Map.of("CAMDOOP_CONF_DIR", conf.toString(), "CAMDOOP_REMOTE_CMD", "",
                "CAMDOOP_PID_DIR", dir.resolve("pids").toString(), "CAMDOOP_LOG_DIR", dir.resolve("logs").toString(),
                "CAMDOOP_IDENT_STRING", "it", "CAMDOOP_JAVA_OPTS", "-Xmx256m -XX:+UseSerialGC");
        try {
            Distribution.Result start = Distribution.run(home, env, "sbin/camdoop-daemons.sh", "start");
            assertEquals(0, start.exit(), start.out());
            Distribution.Result check = Distribution.awaitCheck(home, env, 0,
                    out -> out.contains("1 of 1 up") && !out.contains("0 of 1"), "sbin/camdoop-daemons.sh", "check");
            assertTrue(check.out().matches("(?s)server +host +daemon +links\n0,0,0 +127\\.0\\.0\\.1 +up +1 of 1 up\n"
                    + "1,0,0 +127\\.0\\.0\\.1 +up +1 of 1 up\n"), check.out());

            Distribution.Result stopOne = Distribution.run(home, Map.of("CAMDOOP_PID_DIR",
                    dir.resolve("pids").toString(),
                    "CAMDOOP_IDENT_STRING", "it-1_0_0"), "sbin/camdoop-daemon.sh", "stop");
            assertEquals(0, stopOne.exit(), stopOne.out());
            // Until 2026-11-26 every stop ran out its 10 s and ended with kill -9 (the status file's link listener
            // threw while the daemon closed its links, which broke off the close).
            assertFalse(stopOne.out().contains("did not stop"), stopOne.out());
            Distribution.Result down = Distribution.awaitCheck(home, env, 1, out -> out.contains("down: +x to 1,0,0"),
                    "sbin/camdoop-daemons.sh", "check");
            assertTrue(down.out().matches("(?s).*\n0,0,0 +127\\.0\\.0\\.1 +up +0 of 1 up; down: \\+x to 1,0,0\n"
                    + "1,0,0 +127\\.0\\.0\\.1 +DOWN +-\n"), down.out());
        } finally {
            Distribution.Result stop = Distribution.run(home, env, "sbin/camdoop-daemons.sh", "stop");
            assertEquals(0, stop.exit(), stop.out());
            assertFalse(stop.out().contains("did not stop"), stop.out());
        }
        Distribution.Result status = Distribution.run(home, env, "sbin/camdoop-daemons.sh", "status");
        assertEquals(1, status.exit(), status.out());
        assertTrue(status.out().contains("0,0,0 (127.0.0.1): camdoop daemon it-0_0_0 is not running"), status.out());
        try (Stream<Path> left = Files.list(dir.resolve("pids"))) {
            assertEquals(List.of(), left.toList(), "no pid or status file left behind");
        }
    }

    private static List<String> names(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static String property(String name, String value) {
        return "  <property><name>" + name + "</name><value>" + value + "</value></property>\n";
    }

}
