package org.camdoop.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ApplicationClassLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded camdoop-hadoop jar as a NodeManager loads an aux service from
 * {@code yarn.nodemanager.aux-services.mapreduce_shuffle.classpath}: in Hadoop's child-first
 * {@link ApplicationClassLoader} (AuxServiceClassLoader is one), Hadoop from the parent, next to another Netty on the
 * parent class path. Two daemons started from it must link up over TCP, on the relocated Netty and its renamed native
 * epoll library.
 */
class ShadedJarTest {

    private static final String SHADED = "org.camdoop.shaded.io.netty.";

    @Test
    void theJarHoldsRelocatedNettyOnlyAndTheRenamedEpollLibrary() throws IOException {
        try (JarFile jar = new JarFile(shadedJar().toFile())) {
            List<String> foreign = new ArrayList<>();
            jar.stream().map(e -> e.getName())
                    .filter(n -> n.endsWith(".class") && !n.startsWith("org/camdoop/") && !n.startsWith("META-INF/"))
                    .forEach(foreign::add);
            assertEquals(List.of(), foreign, "classes outside org/camdoop (Netty unrelocated? Hadoop or SLF4J bundled?)");
            assertTrue(jar.getEntry("org/camdoop/shaded/io/netty/channel/Channel.class") != null);
            assertTrue(jar.getEntry("org/camdoop/shuffle/daemon/CamdoopShuffleHandler.class") != null);
            assertTrue(jar.getEntry("META-INF/native/liborg_camdoop_shaded_netty_transport_native_epoll_x86_64.so")
                    != null, "epoll library renamed for the relocated package");
            assertEquals(null, jar.getEntry("META-INF/native/libnetty_transport_native_epoll_x86_64.so"));
        }
    }

    @Test
    @Timeout(60)
    void twoDaemonsFromTheShadedJarLinkUpInAnIsolatedClassLoader(@TempDir Path dir) throws Exception {
        ApplicationClassLoader loader = new ApplicationClassLoader(new URL[] {shadedJar().toUri().toURL()},
                getClass().getClassLoader(), null);
        Class<?> daemonClass = loader.loadClass("org.camdoop.shuffle.daemon.CamdoopDaemon");
        assertSame(loader, daemonClass.getClassLoader(), "Camdoop comes from the shaded jar, not the test class path");
        assertSame(Configuration.class, loader.loadClass(Configuration.class.getName()), "Hadoop from the parent");
        Class<?> parentNetty = loader.loadClass("io.netty.channel.Channel");
        assertNotEquals(loader, parentNetty.getClassLoader(), "unrelocated io.netty is the parent's, not the jar's");
        assertThrows(ClassNotFoundException.class, () -> new java.net.URLClassLoader(
                new URL[] {shadedJar().toUri().toURL()}, null).loadClass("io.netty.channel.Channel"));

        int[] ports = freePorts(2);
        Path topology = dir.resolve("topology");
        Files.writeString(topology, "shape 2x1x1\n0,0,0 127.0.0.1:" + ports[0] + "\n1,0,0 127.0.0.1:" + ports[1] + "\n");
        Method start = daemonClass.getMethod("start", Configuration.class);
        List<AutoCloseable> daemons = new ArrayList<>();
        try {
            for (String coord : List.of("0,0,0", "1,0,0")) {
                Configuration conf = new Configuration(false);
                conf.set("camdoop.topology.file", topology.toString());
                conf.set("camdoop.cluster.secret", "shaded-jar-test-cluster-secret-of-32-bytes");
                conf.set("camdoop.daemon.coordinate", coord);
                conf.set("camdoop.daemon.jar-cache.dir", dir.resolve("jars-" + coord).toString());
                conf.set("camdoop.daemon.local-dirs", dir.resolve("local-" + coord).toString());
                conf.set("hadoop.tmp.dir", dir.toString());
                daemons.add((AutoCloseable) start.invoke(null, conf));
            }
            for (AutoCloseable d : daemons) {
                awaitAnyLinkUp(loader, d);
            }
            Class<?> epoll = loader.loadClass(SHADED + "channel.epoll.Epoll");
            if (System.getProperty("os.name").startsWith("Linux") && System.getProperty("os.arch").equals("amd64")) {
                assertEquals(Boolean.TRUE, epoll.getMethod("isAvailable").invoke(null),
                        "relocated native epoll loads: " + epoll.getMethod("unavailabilityCause").invoke(null));
            }
        } finally {
            for (AutoCloseable d : daemons) {
                d.close();
            }
        }
    }

    /**
     * Waits for the daemon's first link-up event. The daemon's classes live in {@code loader}, so the listener is a
     * proxy of that loader's {@code TransportListener}; it is registered after start, so a link already up counts too.
     */
    private static void awaitAnyLinkUp(ClassLoader loader, Object daemon) throws Exception {
        Object node = daemon.getClass().getMethod("node").invoke(daemon);
        Class<?> listenerType = loader.loadClass("org.camdoop.torus.transport.TransportListener");
        CountDownLatch linked = new CountDownLatch(1);
        Object listener = Proxy.newProxyInstance(loader, new Class<?>[] {listenerType}, (proxy, method, args) -> {
            switch (method.getName()) {
                case "linkUp" -> linked.countDown();
                case "equals" -> {
                    return proxy == args[0];
                }
                case "hashCode" -> {
                    return System.identityHashCode(proxy);
                }
                case "toString" -> {
                    return "link-up latch";
                }
                default -> {
                }
            }
            return null;
        });
        node.getClass().getMethod("addListener", listenerType).invoke(node, listener);
        Class<?> port = loader.loadClass("org.camdoop.torus.topology.Port");
        Method isLinkUp = node.getClass().getMethod("isLinkUp", port);
        for (Object p : port.getEnumConstants()) {
            if ((Boolean) isLinkUp.invoke(node, p)) {
                return;
            }
        }
        assertTrue(linked.await(30, TimeUnit.SECONDS),
                "no link of " + daemon.getClass().getMethod("coord").invoke(daemon) + " came up");
    }

    private static Path shadedJar() {
        String jar = System.getProperty("camdoop.shaded.jar");
        assertNotNull(jar, "camdoop.shaded.jar is set by the build (surefire): run through Maven");
        Path p = Path.of(jar);
        assertTrue(Files.isRegularFile(p), "the shaded jar " + p + " (build camdoop-hadoop first)");
        return p;
    }

    private static int[] freePorts(int n) throws IOException {
        int[] ports = new int[n];
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(s);
                ports[i] = s.getLocalPort();
            }
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
        return ports;
    }
}
