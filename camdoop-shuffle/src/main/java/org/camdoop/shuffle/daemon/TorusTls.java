package org.camdoop.shuffle.daemon;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.ssl.FileBasedKeyStoresFactory;
import org.apache.hadoop.security.ssl.SSLFactory;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.transport.link.LinkTls;

/**
 * Builds the TLS contexts of torus links from Hadoop's own SSL files, the ones {@code mapreduce.shuffle.ssl.enabled}
 * uses: {@code ssl-server.xml} for the accepting side and {@code ssl-client.xml} for the dialing side (names from
 * {@code hadoop.ssl.server.conf} and {@code hadoop.ssl.client.conf}; a class path resource as Hadoop loads them, or an
 * absolute file path). Keys read, with Hadoop's names ({@link FileBasedKeyStoresFactory}):
 * {@code ssl.<mode>.keystore.location}, {@code .password}, {@code .keypassword} (default: the store password),
 * {@code .type} (default {@code jks}), and {@code ssl.<mode>.truststore.location}, {@code .password}, {@code .type}.
 * Passwords go through {@link Configuration#getPassword}, so Hadoop credential providers work too.
 *
 * <p>Both sides present a certificate and require one the truststore accepts (mutual authentication). Hostnames are
 * not checked: a torus peer is named by its coordinate, which the cluster-secret handshake inside TLS proves.
 */
public final class TorusTls {

    private TorusTls() {
    }

    /**
     * The link TLS contexts if {@link TransportConfig#SSL_ENABLED} is on.
     *
     * @throws IllegalArgumentException naming the file and key when the key material cannot be loaded
     */
    public static Optional<LinkTls> from(Configuration conf, TransportConfig transport) {
        if (!transport.sslEnabled()) {
            return Optional.empty();
        }
        Configuration server = sslConf(conf, SSLFactory.SSL_SERVER_CONF_KEY, SSLFactory.SSL_SERVER_CONF_DEFAULT);
        Configuration client = sslConf(conf, SSLFactory.SSL_CLIENT_CONF_KEY, SSLFactory.SSL_CLIENT_CONF_DEFAULT);
        try {
            SslContext serverContext = SslContextBuilder.forServer(keys(server, SSLFactory.Mode.SERVER))
                    .trustManager(trust(server, SSLFactory.Mode.SERVER))
                    .clientAuth(ClientAuth.REQUIRE)
                    .build();
            SslContext clientContext = SslContextBuilder.forClient()
                    .keyManager(keys(client, SSLFactory.Mode.CLIENT))
                    .trustManager(trust(client, SSLFactory.Mode.CLIENT))
                    .endpointIdentificationAlgorithm(null)
                    .build();
            return Optional.of(new LinkTls(serverContext, clientContext));
        } catch (IOException e) {
            throw new IllegalArgumentException(TransportConfig.SSL_ENABLED + ": cannot build the TLS contexts: "
                    + e.getMessage(), e);
        }
    }

    private static Configuration sslConf(Configuration conf, String key, String dflt) {
        String name = conf.getTrimmed(key, dflt);
        Configuration c = new Configuration(false);
        Path file = Path.of(name);
        if (file.isAbsolute()) {
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException(key + " names " + name + ", which is not a file");
            }
            c.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
        } else {
            URL url = Thread.currentThread().getContextClassLoader() != null
                    ? Thread.currentThread().getContextClassLoader().getResource(name)
                    : TorusTls.class.getClassLoader().getResource(name);
            if (url == null) {
                throw new IllegalArgumentException(TransportConfig.SSL_ENABLED + " is true but " + name + " ("
                        + key + ") is not on the class path");
            }
            c.addResource(url);
        }
        c.set("camdoop.tls.source", name);
        return c;
    }

    private static KeyManagerFactory keys(Configuration c, SSLFactory.Mode mode) {
        String location = required(c, mode, FileBasedKeyStoresFactory.SSL_KEYSTORE_LOCATION_TPL_KEY);
        String type = c.get(FileBasedKeyStoresFactory.resolvePropertyName(mode,
                FileBasedKeyStoresFactory.SSL_KEYSTORE_TYPE_TPL_KEY), FileBasedKeyStoresFactory.DEFAULT_KEYSTORE_TYPE);
        char[] password = password(c, mode, FileBasedKeyStoresFactory.SSL_KEYSTORE_PASSWORD_TPL_KEY);
        char[] keyPassword = password(c, mode, FileBasedKeyStoresFactory.SSL_KEYSTORE_KEYPASSWORD_TPL_KEY);
        try {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(load(c, location, type, password), keyPassword != null ? keyPassword : password);
            return kmf;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(c.get("camdoop.tls.source") + ": keystore " + location + ": "
                    + e.getMessage(), e);
        }
    }

    private static TrustManagerFactory trust(Configuration c, SSLFactory.Mode mode) {
        String location = required(c, mode, FileBasedKeyStoresFactory.SSL_TRUSTSTORE_LOCATION_TPL_KEY);
        String type = c.get(FileBasedKeyStoresFactory.resolvePropertyName(mode,
                FileBasedKeyStoresFactory.SSL_TRUSTSTORE_TYPE_TPL_KEY), FileBasedKeyStoresFactory.DEFAULT_KEYSTORE_TYPE);
        char[] password = password(c, mode, FileBasedKeyStoresFactory.SSL_TRUSTSTORE_PASSWORD_TPL_KEY);
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(load(c, location, type, password));
            return tmf;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(c.get("camdoop.tls.source") + ": truststore " + location + ": "
                    + e.getMessage(), e);
        }
    }

    private static KeyStore load(Configuration c, String location, String type, char[] password) {
        try (InputStream in = Files.newInputStream(Path.of(location))) {
            KeyStore ks = KeyStore.getInstance(type);
            ks.load(in, password);
            return ks;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(c.get("camdoop.tls.source") + ": cannot load the " + type + " store "
                    + location + ": " + e.getMessage(), e);
        }
    }

    private static String required(Configuration c, SSLFactory.Mode mode, String template) {
        String key = FileBasedKeyStoresFactory.resolvePropertyName(mode, template);
        String v = c.getTrimmed(key, "");
        if (v.isEmpty()) {
            throw new IllegalArgumentException(c.get("camdoop.tls.source") + " does not set " + key + " (needed by "
                    + TransportConfig.SSL_ENABLED + ")");
        }
        return v;
    }

    private static char[] password(Configuration c, SSLFactory.Mode mode, String template) {
        String key = FileBasedKeyStoresFactory.resolvePropertyName(mode, template);
        try {
            return c.getPassword(key);
        } catch (IOException e) {
            throw new IllegalArgumentException(c.get("camdoop.tls.source") + ": cannot read " + key + ": "
                    + e.getMessage(), e);
        }
    }
}
