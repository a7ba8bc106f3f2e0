package org.camdoop.shuffle.daemon.status;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.TorusShape;

/** Writes the {@link TorusView} object from daemons' status objects (already JSON). Stateless. */
public final class TorusJson {

    private TorusJson() {
    }

    /** The view with the same reason, "does not answer", for every unreachable daemon. */
    public static String render(TorusShape shape, Coord self, long timeMs, List<String> daemons,
            List<Coord> unreachable) {
        Map<Coord, String> reasons = new LinkedHashMap<>();
        unreachable.forEach(c -> reasons.put(c, "does not answer"));
        return render(shape, self, timeMs, daemons, reasons);
    }

    /** @param unreachable the daemons that did not answer usably, each with why, in the order they are listed */
    public static String render(TorusShape shape, Coord self, long timeMs, List<String> daemons,
            Map<Coord, String> unreachable) {
        StringBuilder b = new StringBuilder("{\"shape\": \"").append(shape).append("\", \"self\": \"")
                .append(DaemonSnapshot.format(self)).append("\", \"time_ms\": ").append(timeMs)
                .append(", \"daemons\": [");
        for (int i = 0; i < daemons.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(daemons.get(i));
        }
        b.append("], \"unreachable\": [");
        String sep = "";
        for (Coord c : unreachable.keySet()) {
            b.append(sep).append('"').append(DaemonSnapshot.format(c)).append('"');
            sep = ", ";
        }
        // A separate object, so that readers of the list of coordinates are unchanged.
        b.append("], \"unreachable_reasons\": {");
        sep = "";
        for (Map.Entry<Coord, String> e : unreachable.entrySet()) {
            b.append(sep).append('"').append(DaemonSnapshot.format(e.getKey())).append("\": ")
                    .append(StatusJson.quote(e.getValue()));
            sep = ", ";
        }
        return b.append("}}").toString();
    }
}
