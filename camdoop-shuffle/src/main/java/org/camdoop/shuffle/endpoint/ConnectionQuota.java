package org.camdoop.shuffle.endpoint;

import java.util.HashMap;
import java.util.Map;

/**
 * How many local connections the endpoint holds, in all and per local user. Every connection holds a thread, and the
 * slots are shared by every job on the node: without a cap per user, one user's tasks (or one user looping on
 * connects) could turn every other user's tasks away from Camdoop. The daemon's own user is counted in all but has no
 * cap of its own (under the DefaultContainerExecutor every task runs as it, and so does the NodeManager).
 *
 * <p>Not thread-safe: the endpoint guards it with its lock.
 */
final class ConnectionQuota {

    private final int max;
    private final int maxPerUser;
    private final String daemonUser;
    private final Map<String, Integer> perUser = new HashMap<>();
    private int open;

    ConnectionQuota(int max, int maxPerUser, String daemonUser) {
        this.max = max;
        this.maxPerUser = maxPerUser;
        this.daemonUser = daemonUser;
    }

    /** Takes a slot for a connection of {@code user}; null if taken, else why not. */
    String admit(String user) {
        if (open >= max) {
            return "too many local connections (" + max + "): connection from user " + user + " refused";
        }
        int mine = perUser.getOrDefault(user, 0);
        if (!user.equals(daemonUser) && mine >= maxPerUser) {
            return "too many local connections from user " + user + " (" + maxPerUser + " per user): refused";
        }
        perUser.put(user, mine + 1);
        open++;
        return null;
    }

    /** Gives back the slot of a connection of {@code user} that {@link #admit} took. */
    void release(String user) {
        perUser.computeIfPresent(user, (u, n) -> n == 1 ? null : n - 1);
        open--;
    }

    int open() {
        return open;
    }
}
