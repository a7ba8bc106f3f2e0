package org.camdoop.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.camdoop.shuffle.daemon.TorusTls;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.transport.link.LinkTls;

/**
 * Throw-away key material for the TLS case of {@code bench transport}: one EC key pair made with the JDK's
 * {@code keytool}, trusted by itself, described by Hadoop-style ssl-server.xml and ssl-client.xml, and loaded through
 * {@link TorusTls} exactly as a daemon loads it.
 */
final class BenchTls {

    private static final String PASSWORD = "camdoop-bench-store";

    private BenchTls() {
    }

    static LinkTls create(TransportConfig cfg) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("camdoop-bench-tls");
        try {
            Path ks = dir.resolve("node.p12");
            keytool("-genkeypair", "-alias", "node", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                    "CN=camdoop-bench", "-validity", "1", "-storetype", "PKCS12", "-keystore", ks.toString(),
                    "-storepass", PASSWORD, "-keypass", PASSWORD);
            Path cert = dir.resolve("node.crt");
            keytool("-exportcert", "-alias", "node", "-keystore", ks.toString(), "-storepass", PASSWORD, "-file",
                    cert.toString());
            Path trust = dir.resolve("trust.jks");
            keytool("-importcert", "-noprompt", "-alias", "node", "-file", cert.toString(), "-keystore",
                    trust.toString(), "-storetype", "JKS", "-storepass", PASSWORD);
            Configuration conf = new Configuration(false);
            for (String mode : new String[] {"server", "client"}) {
                Path file = dir.resolve("ssl-" + mode + ".xml");
                String p = "ssl." + mode + ".";
                Files.writeString(file, "<?xml version=\"1.0\"?>\n<configuration>\n"
                        + prop(p + "keystore.location", ks.toString()) + prop(p + "keystore.password", PASSWORD)
                        + prop(p + "keystore.type", "pkcs12") + prop(p + "truststore.location", trust.toString())
                        + prop(p + "truststore.password", PASSWORD) + prop(p + "truststore.type", "jks")
                        + "</configuration>\n");
                conf.set("hadoop.ssl." + mode + ".conf", file.toString());
            }
            return TorusTls.from(conf, cfg.with(TransportConfig.SSL_ENABLED, true)).orElseThrow();
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    private static String prop(String name, String value) {
        return "  <property><name>" + name + "</name><value>" + value + "</value></property>\n";
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IOException("keytool failed: " + out);
        }
    }
}
