package org.camdoop.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.camdoop.shuffle.daemon.status.CamdoopMetricsSource;
import org.camdoop.shuffle.daemon.status.DaemonSnapshot;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The Ambari management pack as Ambari would read it, and its scripts run as an Ambari agent runs them (against a
 * stand-in of Ambari's resource_management library, camdoop-ambari/src/test/python): INSTALL unpacks the real
 * distribution, START starts a real daemon, STATUS, the service check and the links alert see it, STOP stops it. A live
 * Ambari server was not tried (none can be installed here).
 */
@Timeout(240)
class AmbariServiceTest {

    private static final String SERVICE = "common-services/CAMDOOP/0.1.0/";

    @TempDir
    Path dir;

    private Path unpackMpack() throws Exception {
        Path tarball = Path.of(System.getProperty("camdoop.ambari.mpack"));
        Path into = Files.createDirectories(dir.resolve("mpack"));
        Distribution.Result r = Distribution.run(into, Map.of(), "tar", "xzf", tarball.toString(), "-C", into.toString());
        assertEquals(0, r.exit(), r.out());
        try (Stream<Path> tops = Files.list(into)) {
            List<Path> found = tops.toList();
            assertEquals(1, found.size(), "one top directory: " + found);
            return found.get(0);
        }
    }

    private static Document xml(Path file) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
    }

    /** name -> value of a Hadoop- or Ambari-style configuration file. */
    private static Map<String, String> properties(Path file) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        NodeList props = xml(file).getElementsByTagName("property");
        for (int i = 0; i < props.getLength(); i++) {
            Element p = (Element) props.item(i);
            out.put(p.getElementsByTagName("name").item(0).getTextContent().trim(),
                    p.getElementsByTagName("value").item(0).getTextContent());
        }
        return out;
    }

    @Test
    void theDefinitionIsWhatAmbariReadsAndItsConfigurationIsTheTemplates() throws Exception {
        Path mpack = unpackMpack();
        ObjectMapper json = new ObjectMapper();
        JsonNode manifest = json.readTree(mpack.resolve("mpack.json").toFile());
        assertEquals("camdoop-ambari-mpack", manifest.get("name").asText());
        assertEquals("common-services", manifest.get("artifacts").get(0).get("source_dir").asText());

        Document meta = xml(mpack.resolve(SERVICE + "metainfo.xml"));
        assertEquals("CAMDOOP", meta.getElementsByTagName("name").item(0).getTextContent());
        NodeList scripts = meta.getElementsByTagName("script");
        assertEquals(2, scripts.getLength());
        for (int i = 0; i < scripts.getLength(); i++) {
            Path script = mpack.resolve(SERVICE + "package/" + scripts.item(i).getTextContent());
            assertTrue(Files.isExecutable(script), script + " named by metainfo.xml");
        }
        NodeList types = meta.getElementsByTagName("config-type");
        Set<String> dependsOn = new TreeSet<>();
        for (int i = 0; i < types.getLength(); i++) {
            String type = types.item(i).getTextContent();
            dependsOn.add(type);
            if (type.startsWith("camdoop-")) {
                Path config = mpack.resolve(SERVICE + "configuration/" + type + ".xml");
                assertTrue(Files.isRegularFile(config), config + " named by metainfo.xml");
            }
        }
        // YARN's yarn-site (a required service's type) comes with every command: the scripts check the handler in it.
        assertEquals(Set.of("camdoop-env", "camdoop-site", "camdoop-topology", "yarn-site"), dependsOn);
        assertEquals("YARN", ((Element) meta.getElementsByTagName("requiredServices").item(0))
                .getElementsByTagName("service").item(0).getTextContent());

        // Generated from conf/camdoop-site.xml at build time: the same keys in the same order with the same defaults.
        Map<String, String> template = properties(Path.of(System.getProperty("camdoop.site.template")));
        Map<String, String> ambari = properties(mpack.resolve(SERVICE + "configuration/camdoop-site.xml"));
        assertEquals(List.copyOf(template.keySet()), List.copyOf(ambari.keySet()));
        assertEquals(template, ambari);
        assertTrue(template.containsKey("camdoop.daemon.http.port"));
        String secret = Files.readString(mpack.resolve(SERVICE + "configuration/camdoop-site.xml"));
        assertTrue(secret.matches("(?s).*<name>camdoop.cluster.secret</name>.*?<property-type>PASSWORD</property-type>"
                + ".*"), "the cluster secret is a password to Ambari");

        JsonNode alerts = json.readTree(mpack.resolve(SERVICE + "alerts.json").toFile()).get("CAMDOOP")
                .get("CAMDOOP_DAEMON");
        assertEquals("PORT", alerts.get(0).get("source").get("type").asText());
        assertEquals("{{camdoop-site/camdoop.daemon.http.port}}", alerts.get(0).get("source").get("uri").asText());
        String alertScript = alerts.get(1).get("source").get("path").asText();
        assertTrue(Files.isRegularFile(mpack.resolve("common-services/" + alertScript)), alertScript);

        // Every metric the widgets and metrics.json name is one the daemon's metrics2 source publishes.
        Set<String> published = publishedMetrics();
        JsonNode metrics = json.readTree(mpack.resolve(SERVICE + "metrics.json").toFile()).get("CAMDOOP_DAEMON")
                .get("Component").get(0).get("metrics").get("default");
        Set<String> named = new TreeSet<>();
        metrics.fields().forEachRemaining(e -> named.add(e.getValue().get("metric").asText()));
        json.readTree(mpack.resolve(SERVICE + "widgets.json").toFile()).findValues("metrics").forEach(
                list -> list.forEach(m -> named.add(m.get("name").asText())));
        assertTrue(named.size() >= 9, named.toString());
        assertEquals(Set.of(), difference(named, published), "metrics named but not published");
    }

    private static Set<String> difference(Set<String> a, Set<String> b) {
        Set<String> d = new TreeSet<>(a);
        d.removeAll(b);
        return d;
    }

    /** context.record.metric, as Ambari Metrics names what a metrics2 sink hands it. */
    private static Set<String> publishedMetrics() {
        MetricsCollectorImpl collector = new MetricsCollectorImpl();
        new CamdoopMetricsSource(() -> new DaemonSnapshot(new Coord(0, 0, 0), TorusShape.parse("1x1x1"), List.of(),
                0, 0, 1, 1, 0, 0, 0, 0, List.of(), new java.util.TreeMap<>(),
                org.camdoop.shuffle.service.DaemonCounters.Snapshot.none())).getMetrics(collector, true);
        Set<String> names = new TreeSet<>();
        for (MetricsRecord r : collector.getRecords()) {
            for (AbstractMetric m : r.metrics()) {
                names.add(r.context() + "." + r.name() + "." + m.name());
            }
        }
        return names;
    }

    private int torusPort;
    private int httpPort;

    /** An Ambari command's JSON: the service's configurations, and YARN's yarn-site as Ambari passes it along. */
    private Path command(String name, String mode, Map<String, String> yarnSite) throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode command = json.createObjectNode();
        ObjectNode configs = command.putObject("configurations");
        ObjectNode site = configs.putObject("camdoop-site");
        properties(Path.of(System.getProperty("camdoop.site.template"))).forEach(site::put);
        site.put("camdoop.cluster.secret", "ambari-test-cluster-secret-of-32-bytes-or-more");
        site.put("camdoop.daemon.http.port", "" + httpPort);
        site.put("camdoop.daemon.local-dirs", dir.resolve("local").toString());
        site.put("camdoop.daemon.vertex.threads", "1");
        ObjectNode env = configs.putObject("camdoop-env");
        env.put("camdoop_mode", mode);
        env.put("camdoop_dist_tarball", System.getProperty("camdoop.dist.tarball"));
        env.put("camdoop_home", dir.resolve("opt-camdoop").toString());
        env.put("camdoop_user", System.getProperty("user.name"));
        env.put("camdoop_conf_dir", dir.resolve("etc").toString());
        env.put("camdoop_pid_dir", dir.resolve("run").toString());
        env.put("camdoop_log_dir", dir.resolve("log").toString());
        env.put("camdoop_java_opts", "-Xmx256m -XX:+UseSerialGC");
        env.put("hadoop_conf_dir", Files.createDirectories(dir.resolve("hadoop-conf")).toString());
        env.put("camdoop_start_wait_seconds", "2");
        configs.putObject("camdoop-topology").put("content", "shape 1x1x1\n0,0,0 127.0.0.1:" + torusPort + "\n");
        ObjectNode yarn = configs.putObject("yarn-site");
        yarnSite.forEach(yarn::put);
        Path file = dir.resolve(name + ".json");
        json.writeValue(file.toFile(), command);
        return file;
    }

    @Test
    void theScriptsInstallStartReportAndStopARealDaemon() throws Exception {
        Path mpack = unpackMpack();
        Path scripts = mpack.resolve(SERVICE + "package/scripts");
        try (ServerSocket a = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ServerSocket b = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            torusPort = a.getLocalPort();
            httpPort = b.getLocalPort();
        }
        Path home = dir.resolve("opt-camdoop");
        Path standalone = command("standalone", "standalone", Map.of());
        Path nodeManagerUnset = command("nm-unset", "nodemanager", Map.of());
        Path nodeManager = command("nm", "nodemanager", Map.of(
                "yarn.nodemanager.aux-services.mapreduce_shuffle.class",
                "org.camdoop.shuffle.daemon.CamdoopShuffleHandler",
                "yarn.nodemanager.aux-services.mapreduce_shuffle.classpath",
                home.resolve("share/camdoop/camdoop-hadoop-0.1.0-SNAPSHOT.jar").toString()));

        assertOk(agent(scripts, "camdoop_daemon.py", "INSTALL", standalone));
        assertTrue(Files.isExecutable(home.resolve("sbin/camdoop-daemon.sh")), "INSTALL unpacked the distribution");

        // The default mode: the daemon lives in the NodeManager, so yarn-site must load it; the error says how.
        Distribution.Result unset = agent(scripts, "camdoop_daemon.py", "CONFIGURE", nodeManagerUnset);
        assertEquals(1, unset.exit(), unset.out());
        assertTrue(unset.out().contains("the NodeManagers do not load Camdoop: in YARN's yarn-site set"
                + " yarn.nodemanager.aux-services.mapreduce_shuffle.class="
                + "org.camdoop.shuffle.daemon.CamdoopShuffleHandler and"), unset.out());
        assertOk(agent(scripts, "camdoop_daemon.py", "CONFIGURE", nodeManager));
        assertEquals("ambari-test-cluster-secret-of-32-bytes-or-more", properties(dir.resolve(
                "hadoop-conf/camdoop-site.xml")).get("camdoop.cluster.secret"), "camdoop-site.xml beside yarn-site.xml");
        Distribution.Result noDaemon = agent(scripts, "camdoop_daemon.py", "START", nodeManager);
        assertEquals(1, noDaemon.exit(), noDaemon.out());
        assertTrue(noDaemon.out().contains("no Camdoop daemon answers on port " + httpPort + " of this host after 2 s:"
                + " restart the NodeManager here"), noDaemon.out());
        assertNotEquals(0, agent(scripts, "camdoop_daemon.py", "STATUS", nodeManager).exit());

        assertNotEquals(0, agent(scripts, "camdoop_daemon.py", "STATUS", standalone).exit(), "not started yet");
        try {
            assertOk(agent(scripts, "camdoop_daemon.py", "START", standalone));
            assertEquals("ambari-test-cluster-secret-of-32-bytes-or-more", properties(dir.resolve(
                    "etc/camdoop-site.xml")).get("camdoop.cluster.secret"), "CONFIGURE wrote camdoop-site.xml");
            assertEquals(dir.resolve("etc/topology").toString(), properties(dir.resolve("etc/camdoop-site.xml"))
                    .get("camdoop.topology.file"));
            assertOk(agent(scripts, "camdoop_daemon.py", "STATUS", standalone));
            // In nodemanager mode STATUS asks the daemon's status port, whoever runs the daemon: now it answers.
            assertOk(agent(scripts, "camdoop_daemon.py", "STATUS", nodeManager));
            Distribution.Result check = agent(scripts, "service_check.py", "SERVICE_CHECK", standalone);
            assertOk(check);
            assertTrue(check.out().contains("Camdoop: 1 daemons answer, every link between them is up"), check.out());
            Distribution.Result alert = Distribution.run(dir, Map.of("PYTHONPATH",
                    mpack.resolve(SERVICE + "package/alerts").toString()),
                    "python3", "-c", "import alert_camdoop_links as a; print(a.execute({"
                            + "'{{camdoop-site/camdoop.daemon.http.port}}': '" + httpPort + "',"
                            + " '{{camdoop-topology/content}}': 'shape 1x1x1\\n0,0,0 127.0.0.1:1\\n'},"
                            + " {}, '127.0.0.1'))");
            assertEquals("('OK', ['Camdoop daemon 0,0,0: 0 links up, 0 shuffles running'])", alert.out().strip(),
                    alert.out());
        } finally {
            assertOk(agent(scripts, "camdoop_daemon.py", "STOP", standalone));
        }
        Distribution.Result stopped = agent(scripts, "camdoop_daemon.py", "STATUS", standalone);
        assertEquals(1, stopped.exit(), stopped.out());
        assertTrue(stopped.out().contains("ComponentIsNotRunning"), stopped.out());
        Distribution.Result down = Distribution.run(dir, Map.of("PYTHONPATH",
                mpack.resolve(SERVICE + "package/alerts").toString()), "python3", "-c",
                "import alert_camdoop_links as a; print(a.execute({'{{camdoop-site/camdoop.daemon.http.port}}': '"
                        + httpPort + "'}, {}, '127.0.0.1')[0])");
        assertEquals("CRITICAL", down.out().strip(), down.out());
    }

    /**
     * The links alert on what a daemon of a 3x3x3 torus reports (its status.json, rendered by the daemon's own
     * encoder, served here): a link routed around is a WARNING even once it is back up, since it stays unused; a link
     * down is one too, saying so; a link to a server outside the topology Ambari knows is not this alert's business.
     */
    @Test
    @Timeout(60)
    void theLinksAlertWarnsOfALinkRoutedAroundEvenOnceItIsBackUp() throws Exception {
        Path mpack = unpackMpack();
        TorusShape shape = TorusShape.parse("3x3x3");
        Coord self = new Coord(0, 0, 0);
        List<org.camdoop.torus.transport.LinkState> routedButUp = List.of(
                new org.camdoop.torus.transport.LinkState(org.camdoop.torus.topology.Port.PLUS_X, new Coord(1, 0, 0),
                        true, 4096, true, 1L),
                new org.camdoop.torus.transport.LinkState(org.camdoop.torus.topology.Port.MINUS_X, new Coord(2, 0, 0),
                        true, 4096, false, 1L));
        String topology = "shape 3x3x3\\n0,0,0 127.0.0.1:1\\n1,0,0 127.0.0.1:2\\n2,0,0 127.0.0.1:3\\n";
        assertEquals("('WARNING', ['Camdoop daemon 0,0,0: links up but routed around, unused until a daemon at either"
                + " end restarts: +x to 1,0,0'])", linksAlert(mpack, shape, self, routedButUp, topology));
        List<org.camdoop.torus.transport.LinkState> downAndRouted = List.of(
                new org.camdoop.torus.transport.LinkState(org.camdoop.torus.topology.Port.PLUS_X, new Coord(1, 0, 0),
                        false, 4096, true, 1L),
                routedButUp.get(1));
        assertEquals("('WARNING', ['Camdoop daemon 0,0,0: links down: +x to 1,0,0'])",
                linksAlert(mpack, shape, self, downAndRouted, topology));
        assertEquals("('OK', ['Camdoop daemon 0,0,0: 2 links up, 0 shuffles running'])",
                linksAlert(mpack, shape, self, routedButUp, "shape 3x3x3\\n0,0,0 127.0.0.1:1\\n2,0,0 127.0.0.1:3\\n"));
    }

    /** The links alert's answer for a daemon reporting {@code links}, with Ambari's topology {@code topology}. */
    private String linksAlert(Path mpack, TorusShape shape, Coord self,
            List<org.camdoop.torus.transport.LinkState> links, String topology) throws Exception {
        String json = org.camdoop.shuffle.daemon.status.StatusJson.render(new DaemonSnapshot(self, shape, links, 0, 0,
                1, 1, 0, 0, 0, 0, List.of(), new java.util.TreeMap<>(),
                org.camdoop.shuffle.service.DaemonCounters.Snapshot.none()));
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/status.json", exchange -> {
            byte[] body = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (java.io.OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        try {
            Distribution.Result alert = Distribution.run(dir, Map.of("PYTHONPATH",
                    mpack.resolve(SERVICE + "package/alerts").toString()), "python3", "-c",
                    "import alert_camdoop_links as a; print(a.execute({'{{camdoop-site/camdoop.daemon.http.port}}': '"
                            + server.getAddress().getPort() + "', '{{camdoop-topology/content}}': '" + topology
                            + "'}, {}, '127.0.0.1'))");
            assertEquals(0, alert.exit(), alert.out());
            return alert.out().strip();
        } finally {
            server.stop(0);
        }
    }

    /** Runs a command script as the Ambari agent does: SCRIPT COMMAND COMMAND_JSON BASEDIR STRUCTURED_OUT LEVEL TMP. */
    private Distribution.Result agent(Path scripts, String script, String command, Path commandFile)
            throws Exception {
        return Distribution.run(scripts, Map.of("PYTHONPATH", scripts + ":" + System.getProperty("camdoop.ambari.standin")),
                "python3", scripts.resolve(script).toString(), command, commandFile.toString(),
                scripts.getParent().toString(), dir.resolve("structured-out.json").toString(), "INFO",
                dir.toString());
    }

    private static void assertOk(Distribution.Result r) {
        assertEquals(0, r.exit(), r.out());
    }
}
