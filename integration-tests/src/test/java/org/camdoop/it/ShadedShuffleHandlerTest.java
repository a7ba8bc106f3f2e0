package org.camdoop.it;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.AuxServices;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.ContainerManagerImpl;
import org.camdoop.shuffle.daemon.CamdoopDaemon;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.transport.TransportListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MiniYARN NodeManager loads {@code CamdoopShuffleHandler} as its {@code mapreduce_shuffle} from the shaded jar through
 * {@code yarn.nodemanager.aux-services.mapreduce_shuffle.classpath} (its own class loader, Hadoop's ShuffleHandler from
 * the parent, as on a real cluster) and the
 * daemon it starts links up with a daemon from this JVM's unshaded classes: the NodeManager's daemon is really running,
 * and shaded and unshaded builds speak the same protocol.
 */
class ShadedShuffleHandlerTest {

    @Test
    @Timeout(120)
    void aNodeManagerStartsTheShuffleHandlerFromTheShadedJar(@TempDir Path dir) throws Exception {
        String jar = System.getProperty("camdoop.shaded.jar");
        assertNotNull(jar, "camdoop.shaded.jar is set by the build (surefire): run through Maven");
        assertTrue(Files.isRegularFile(Path.of(jar)), "the shaded jar " + jar);

        int[] ports = freePorts(2);
        Path topology = dir.resolve("topology");
        Files.writeString(topology, "shape 2x1x1\n0,0,0 127.0.0.1:" + ports[0] + "\n1,0,0 127.0.0.1:" + ports[1] + "\n");

        Configuration conf = new YarnConfiguration();
        conf.set("yarn.nodemanager.aux-services", "mapreduce_shuffle");
        conf.set("yarn.nodemanager.aux-services.mapreduce_shuffle.class",
                "org.camdoop.shuffle.daemon.CamdoopShuffleHandler");
        conf.set("yarn.nodemanager.aux-services.mapreduce_shuffle.classpath", jar);
        conf.setInt("mapreduce.shuffle.port", 0);
        conf.set("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "100.0");
        conf.set("camdoop.topology.file", topology.toString());
        conf.set("camdoop.cluster.secret", "shaded-aux-service-test-secret-of-32-bytes");
        conf.set("camdoop.daemon.coordinate", "0,0,0");
        conf.set("camdoop.daemon.jar-cache.dir", dir.resolve("jars-nm").toString());

        MiniYARNCluster yarn = new MiniYARNCluster("shaded-aux", 1, 1, 1);
        CamdoopDaemon peer = null;
        try {
            yarn.init(conf);
            yarn.start();
            assertTrue(auxServiceClasses(yarn).contains(CUSTOM_LOADER), "the NodeManager's aux services: "
                    + auxServiceClasses(yarn) + " (expected the shaded jar in its own class loader)");
            Configuration peerConf = new Configuration(false);
            peerConf.set("camdoop.topology.file", topology.toString());
            peerConf.set("camdoop.cluster.secret", "shaded-aux-service-test-secret-of-32-bytes");
            peerConf.set("camdoop.daemon.coordinate", "1,0,0");
            peerConf.set("camdoop.daemon.jar-cache.dir", dir.resolve("jars-peer").toString());
            peerConf.set("camdoop.daemon.local-dirs", dir.resolve("local-peer").toString());
            peerConf.set("hadoop.tmp.dir", dir.toString());
            peer = CamdoopDaemon.start(peerConf);
            CountDownLatch linked = new CountDownLatch(1);
            peer.node().addListener(new TransportListener() {
                @Override
                public void linkUp(Port port, Coord neighbour) {
                    linked.countDown();
                }
            });
            // Registered after start: a link already up announced itself before the listener was there.
            if (!peer.node().isLinkUp(Port.PLUS_X) && !peer.node().isLinkUp(Port.MINUS_X)) {
                assertTrue(linked.await(30, TimeUnit.SECONDS), "the NodeManager's daemon at 0,0,0 never linked up");
            }
        } finally {
            if (peer != null) {
                peer.close();
            }
            yarn.stop();
        }
    }

    /** The class Hadoop wraps an aux service loaded from its own class path in. */
    private static final String CUSTOM_LOADER =
            "org.apache.hadoop.yarn.server.nodemanager.containermanager.AuxiliaryServiceWithCustomClassLoader";

    /** The classes of the NodeManager's aux services (ContainerManagerImpl's protected field and AuxServices' package-private getter: no public API). */
    private static java.util.List<String> auxServiceClasses(MiniYARNCluster yarn) throws ReflectiveOperationException {
        Object containerManager = yarn.getNodeManager(0).getNMContext().getContainerManager();
        // MiniYARN runs a subclass of ContainerManagerImpl: look the field up where it is declared.
        java.lang.reflect.Field field = ContainerManagerImpl.class.getDeclaredField("auxiliaryServices");
        field.setAccessible(true);
        AuxServices aux = (AuxServices) field.get(containerManager);
        java.lang.reflect.Method services = AuxServices.class.getDeclaredMethod("getServices");
        services.setAccessible(true);
        return ((java.util.Collection<?>) services.invoke(aux)).stream().map(s -> s.getClass().getName()).toList();
    }

    private static int[] freePorts(int n) throws IOException {
        int[] ports = new int[n];
        ServerSocket[] held = new ServerSocket[n];
        try {
            for (int i = 0; i < n; i++) {
                held[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ports[i] = held[i].getLocalPort();
            }
        } finally {
            for (ServerSocket s : held) {
                if (s != null) {
                    s.close();
                }
            }
        }
        return ports;
    }
}
