package org.camdoop.torus.transport.link;

import io.netty.handler.ssl.SslContext;

/**
 * TLS for torus links: the context an accepting daemon uses (it must require a client certificate) and the one a
 * dialing daemon uses. The transport has no opinion on where key material comes from; the daemon builds both from
 * Hadoop's {@code ssl-server.xml} and {@code ssl-client.xml}. The cluster-secret handshake still runs inside TLS: TLS
 * proves a certificate the truststore accepts, the handshake proves the secret and the torus coordinate.
 *
 * @param server context for accepted connections ({@code SslContext.isServer()}), with client authentication required
 * @param client context for dialed connections, presenting this daemon's certificate
 */
public record LinkTls(SslContext server, SslContext client) {

    public LinkTls {
        if (server == null || client == null || !server.isServer() || !client.isClient()) {
            throw new IllegalArgumentException("link TLS needs a server context and a client context");
        }
    }
}
