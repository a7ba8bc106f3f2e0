package org.camdoop.shuffle.daemon;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Key material for TLS tests, made with the JDK's {@code keytool} (a real PKCS12 keystore per identity and a JKS
 * truststore) and described by Hadoop-style {@code ssl-server.xml} / {@code ssl-client.xml} files.
 */
public final class TestKeystores {

    public static final String PASSWORD = "camdoop-test-store";

    private TestKeystores() {
    }

    /** A new EC key pair with a self-signed certificate in {@code dir/<alias>.p12}. */
    public static Path keyPair(Path dir, String alias) throws IOException, InterruptedException {
        Path store = dir.resolve(alias + ".p12");
        keytool("-genkeypair", "-alias", alias, "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                "CN=" + alias + ",O=camdoop-test", "-validity", "2", "-storetype", "PKCS12", "-keystore",
                store.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD);
        return store;
    }

    /** A JKS truststore in {@code dir/<name>.jks} holding the certificates of {@code trusted} keystores. */
    public static Path trustStore(Path dir, String name, Path... trusted) throws IOException, InterruptedException {
        Path store = dir.resolve(name + ".jks");
        for (Path ks : trusted) {
            String alias = ks.getFileName().toString().replace(".p12", "");
            Path cert = dir.resolve(alias + ".crt");
            if (!Files.exists(cert)) {
                keytool("-exportcert", "-alias", alias, "-keystore", ks.toString(), "-storetype", "PKCS12",
                        "-storepass", PASSWORD, "-file", cert.toString());
            }
            keytool("-importcert", "-noprompt", "-alias", alias, "-file", cert.toString(), "-keystore",
                    store.toString(), "-storetype", "JKS", "-storepass", PASSWORD);
        }
        return store;
    }

    /**
     * Writes {@code dir/<prefix>-ssl-server.xml} and {@code -ssl-client.xml} naming {@code keyStore} (PKCS12) and
     * {@code trustStore} (JKS) with Hadoop's keys, and points {@code conf} at them.
     */
    public static void sslFiles(org.apache.hadoop.conf.Configuration conf, Path dir, String prefix, Path keyStore,
            Path trustStore) throws IOException {
        for (String mode : new String[] {"server", "client"}) {
            Path file = dir.resolve(prefix + "-ssl-" + mode + ".xml");
            Files.writeString(file, "<?xml version=\"1.0\"?>\n<configuration>\n"
                    + property("ssl." + mode + ".keystore.location", keyStore.toString())
                    + property("ssl." + mode + ".keystore.password", PASSWORD)
                    + property("ssl." + mode + ".keystore.keypassword", PASSWORD)
                    + property("ssl." + mode + ".keystore.type", "pkcs12")
                    + property("ssl." + mode + ".truststore.location", trustStore.toString())
                    + property("ssl." + mode + ".truststore.password", PASSWORD)
                    + property("ssl." + mode + ".truststore.type", "jks")
                    + "</configuration>\n");
            conf.set("hadoop.ssl." + mode + ".conf", file.toAbsolutePath().toString());
        }
    }

    private static String property(String name, String value) {
        return "  <property><name>" + name + "</name><value>" + value + "</value></property>\n";
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IOException("keytool " + String.join(" ", args) + " failed: " + out);
        }
    }
}
