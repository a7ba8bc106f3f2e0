package org.camdoop.shuffle.service;

import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.plan.RepairScope;
import org.camdoop.shuffle.service.plan.StreamEdge;
import org.camdoop.shuffle.service.vertex.Vertex;
import org.camdoop.torus.transport.TorusNode;
import org.camdoop.torus.transport.stream.InboundStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This daemon's part of a tree repair (docs/recovery.md, "Tree repair"), applied to the generation it repairs before
 * the repair's own vertices run: that generation's vertices and streams in the subtrees rebuilt stop (the repair runs
 * them anew), and in the trees it keeps, a stream from a failed server's vertex that has not ended ends as the empty
 * stream it was (the root repairs only when that server held no map output of the shuffle, and a leaf vertex with no
 * map output sends nothing but its end). Called on the vertex threads.
 */
final class LocalRepairs {

    private static final Logger LOG = LoggerFactory.getLogger(LocalRepairs.class);

    private final TorusNode node;
    private final RecentShuffles recent;
    private final RunningShuffles running;
    private final BiConsumer<RunningShuffle.Stopped, String> stopper;

    LocalRepairs(TorusNode node, RecentShuffles recent, RunningShuffles running,
            BiConsumer<RunningShuffle.Stopped, String> stopper) {
        this.node = node;
        this.recent = recent;
        this.running = running;
        this.stopper = stopper;
    }

    /**
     * Applies repair generation {@code repair} to the generation it repairs here (or remembers it, for a START of that
     * generation still to come).
     *
     * @return the vertices of the repaired generation running here that the repair's streams feed: the failed vertex's
     *         parent in each tree rebuilt, if it runs here
     */
    List<Vertex> apply(ShuffleSpec repair) {
        ShuffleKey repairedKey = new ShuffleKey(repair.streamKey(repair.generation().number() - 1),
                repair.partition());
        recent.repaired(repairedKey, repair);
        RunningShuffle repaired = running.get(repairedKey);
        if (repaired == null) {
            return List.of();
        }
        RepairScope scope = stopSubtrees(repaired, repair);
        endVanished(repaired, repair);
        return repaired.vertices().stream().filter(v -> !v.plan().isRoot() && scope.repair().repairs(v.plan().tree())
                && v.plan().vertex() == scope.parentOfTop(v.plan().tree())).toList();
    }

    /**
     * Stops {@code repaired}'s vertices and streams in {@code repair}'s subtrees. Two callers stop disjoint parts
     * ({@link RunningShuffle#cutSubtrees} hands each part over once).
     */
    RepairScope stopSubtrees(RunningShuffle repaired, ShuffleSpec repair) {
        RepairScope scope = RepairScope.of(repair, node.shape()).orElseThrow();
        RunningShuffle.Stopped cut = repaired.cutSubtrees(scope);
        LOG.debug("shuffle {}: {} stops {} vertices and {} streams here", repair.describe(), scope.repair(),
                cut.vertices().size(), cut.inputs().size() + cut.outputs().size());
        stopper.accept(cut, "subtree repaired by generation " + repair.generation().number());
        return scope;
    }

    /**
     * Ends the inputs of {@code repaired}'s vertices that come from servers {@code repair} takes for failed. Ending one
     * twice changes nothing (a vertex drops an end for an input that has one).
     */
    void endVanished(RunningShuffle repaired, ShuffleSpec repair) {
        int[] before = repaired.spec().generation().failed();
        for (int server : repair.generation().failed()) {
            if (Arrays.stream(before).anyMatch(f -> f == server)) {
                continue; // planned without it: nothing of it runs
            }
            List<InboundStream> from = repaired.inputsFrom(server);
            for (Vertex v : repaired.vertices()) {
                List<StreamEdge> edges = v.plan().inputs();
                for (int i = 0; i < edges.size(); i++) {
                    StreamEdge e = edges.get(i);
                    if (e.senderHost() != server) {
                        continue;
                    }
                    from.stream().filter(s -> s.id().tree() == e.tree() && s.id().vertex() == e.sendingVertex())
                            .forEach(node::closeInbound);
                    v.endVanished(i); // ignored if it ended, or was rebound
                }
            }
        }
    }
}
