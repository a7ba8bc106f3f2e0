package org.camdoop.shuffle.protocol;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * Who is at the other end of a Unix domain socket, and who owns a file: the two facts both ends of the local channel
 * check. Users are compared by name as the platform reports them (a uid without a name reads as its number). Stateless.
 */
public final class UnixPeers {
    private UnixPeers() {}

    /** The user of the process at the other end of {@code channel} (SO_PEERCRED, fixed when the socket connected). */
    public static String peerUser(SocketChannel channel) throws IOException {
        UnixDomainPrincipal p = channel.getOption(ExtendedSocketOptions.SO_PEERCRED);
        return p.user().getName();
    }

    /** The owner of {@code file} itself (a link is not followed). */
    public static String ownerOf(Path file) throws IOException {
        return Files.getOwner(file, LinkOption.NOFOLLOW_LINKS).getName();
    }

    private static volatile String processUser;

    /**
     * The user this process runs as, as the file system sees it (the owner of a file it creates; {@code user.name} can
     * be set to anything on the command line).
     */
    public static String processUser() throws IOException {
        String u = processUser;
        if (u == null) {
            Path probe = Files.createTempFile("camdoop-whoami", ".tmp");
            try {
                u = ownerOf(probe);
            } finally {
                Files.deleteIfExists(probe);
            }
            processUser = u;
        }
        return u;
    }
}
