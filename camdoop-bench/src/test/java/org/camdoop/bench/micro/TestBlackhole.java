package org.camdoop.bench.micro;

import org.openjdk.jmh.infra.Blackhole;

/** A JMH Blackhole for calling benchmark methods directly, outside the harness (JMH guards its constructor). */
final class TestBlackhole {
    private TestBlackhole() {}

    static Blackhole create() {
        return new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
    }
}
