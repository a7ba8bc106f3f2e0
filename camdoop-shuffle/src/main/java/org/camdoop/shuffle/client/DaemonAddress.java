package org.camdoop.shuffle.client;

import java.nio.file.Path;

/**
 * Where a task reaches its daemon: the Unix domain socket, and the user the daemon must run as (the socket file's
 * owner and the serving process's SO_PEERCRED user must both be this user).
 */
public record DaemonAddress(Path socket, String daemonUser) {
    @Override
    public String toString() {
        return socket + " (daemon user " + daemonUser + ")";
    }
}
