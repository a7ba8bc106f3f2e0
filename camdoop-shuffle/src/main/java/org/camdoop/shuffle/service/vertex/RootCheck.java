package org.camdoop.shuffle.service.vertex;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.camdoop.shuffle.aggregation.exactlyonce.ExactlyOnceReport;
import org.camdoop.shuffle.aggregation.exactlyonce.ExactlyOnceViolationException;
import org.camdoop.shuffle.protocol.EndOfStream;
import org.camdoop.shuffle.protocol.MapAttemptSummary;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.plan.VertexPlan;

/**
 * The root's exactly-once check (DESIGN section 3.5). Every tree carries one stripe of every map output, so for each
 * tree the attempts its child streams include, plus the root's own local attempts, must be exactly the expected set:
 * an attempt missing from one tree lost that stripe of its keys, one included twice would be counted twice.
 */
final class RootCheck {

    private RootCheck() {
    }

    static void verify(ShuffleSpec shuffle, VertexPlan plan, List<EndOfStream> childEnds, MapAttemptSummary local)
            throws ExactlyOnceViolationException {
        Map<Integer, List<MapAttemptSummary>> byTree = new TreeMap<>();
        for (int i = 0; i < childEnds.size(); i++) {
            byTree.computeIfAbsent(plan.inputs().get(i).tree(), t -> new ArrayList<>()).add(childEnds.get(i).attempts());
        }
        if (byTree.isEmpty()) {
            byTree.put(0, new ArrayList<>());
        }
        for (List<MapAttemptSummary> parts : byTree.values()) {
            parts.add(local);
            ExactlyOnceReport.check(shuffle.partition(), shuffle.expectedAttempts(), parts).throwIfViolated();
        }
    }
}
