package org.camdoop.shuffle.daemon.status;

import java.util.List;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;

/** Writes the {@link TorusView} object from daemons' status objects (already JSON). Stateless. */
public final class TorusJson {

    private TorusJson() {
    }

    public static String render(TorusShape shape, Coord self, long timeMs, List<String> daemons,
            List<Coord> unreachable) {
        StringBuilder b = new StringBuilder("{\"shape\": \"").append(shape).append("\", \"self\": \"")
                .append(DaemonSnapshot.format(self)).append("\", \"time_ms\": ").append(timeMs)
                .append(", \"daemons\": [");
        for (int i = 0; i < daemons.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(daemons.get(i));
        }
        b.append("], \"unreachable\": [");
        for (int i = 0; i < unreachable.size(); i++) {
            b.append(i == 0 ? "" : ", ").append('"').append(DaemonSnapshot.format(unreachable.get(i))).append('"');
        }
        return b.append("]}").toString();
    }
}
