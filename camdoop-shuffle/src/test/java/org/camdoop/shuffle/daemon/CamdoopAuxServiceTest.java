package org.camdoop.shuffle.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The NodeManager's view: the service starts a daemon, learns each job's shuffle secret, forgets it at the end. */
class CamdoopAuxServiceTest {

    @TempDir
    Path dir;

    @Test
    void applicationsBringAndTakeTheirShuffleSecret() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Path topology = dir.resolve("topology");
        Files.writeString(topology, "shape 1x1x1\n0,0,0 127.0.0.1:" + port + "\n");
        Configuration conf = new Configuration(false);
        conf.set("camdoop.topology.file", topology.toString());
        conf.set("camdoop.cluster.secret", "s");
        conf.set("camdoop.daemon.jar-cache.dir", dir.resolve("jars").toString());
        conf.set(DaemonConfig.CLAIM_DIR, dir.resolve("claims").toString());
        conf.set("yarn.nodemanager.local-dirs", dir.resolve("nm-a") + "," + dir.resolve("nm-b"));
        CamdoopAuxService service = new CamdoopAuxService();
        service.init(conf);
        service.start();
        try {
            ApplicationId app = ApplicationId.newInstance(1700000000000L, 3);
            String job = "job_1700000000000_0003";
            // Serialised as the MapReduce ApplicationMaster does for shuffle providers (ShuffleHandler's format).
            Token<JobTokenIdentifier> token = new Token<>(new JobTokenIdentifier(new Text(job)).getBytes(),
                    "secret".getBytes(), JobTokenIdentifier.KIND_NAME, new Text(""));
            DataOutputBuffer out = new DataOutputBuffer();
            token.write(out);
            service.initializeApplication(new ApplicationInitializationContext("user", app,
                    ByteBuffer.wrap(out.getData(), 0, out.getLength())));
            assertTrue(service.daemon().tokens().knows(job));
            service.stopApplication(new ApplicationTerminationContext(app));
            assertFalse(service.daemon().tokens().knows(job));
            assertEquals(new org.camdoop.torus.topology.Coord(0, 0, 0), service.daemon().coord());
            // Claimed (no coordinate configured; 127.0.0.1 names this host), and published for the tasks.
            assertTrue(Files.exists(dir.resolve("claims/camdoop-coord-0-0-0.lock")));
            for (String nm : new String[] {"nm-a", "nm-b"}) {
                assertEquals(service.daemon().localSocket() + "\n",
                        Files.readString(dir.resolve(nm).resolve(org.camdoop.shuffle.protocol.DaemonSocketFile.PATH)));
            }
        } finally {
            service.stop();
        }
        assertFalse(Files.exists(dir.resolve("claims/camdoop-coord-0-0-0.lock")));
        assertFalse(Files.exists(dir.resolve("nm-a").resolve(org.camdoop.shuffle.protocol.DaemonSocketFile.PATH)));
    }
}
