package org.camdoop.shuffle.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class ConnectionQuotaTest {

    @Test
    void oneUserTakesAtMostItsShareTheDaemonsUserOnlyTheWholeAndReleasesGiveBoth() {
        ConnectionQuota q = new ConnectionQuota(5, 2, "yarn");
        assertNull(q.admit("alice"));
        assertNull(q.admit("alice"));
        assertEquals("too many local connections from user alice (2 per user): refused", q.admit("alice"));
        assertNull(q.admit("bob"));
        assertNull(q.admit("yarn"));
        assertNull(q.admit("yarn")); // the daemon's own user has no share of its own
        assertEquals("too many local connections (5): connection from user bob refused", q.admit("bob"));
        assertEquals(5, q.open());
        q.release("alice");
        assertNull(q.admit("alice"), "a released slot counts for its user again");
        q.release("yarn");
        q.release("yarn");
        assertNull(q.admit("bob"));
        assertEquals("too many local connections from user bob (2 per user): refused", q.admit("bob"));
        assertEquals(4, q.open());
    }
}
