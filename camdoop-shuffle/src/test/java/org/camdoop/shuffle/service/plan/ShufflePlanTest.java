package org.camdoop.shuffle.service.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.SpanningTrees;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ShufflePlanTest {

    private static ShuffleSpec spec(Coord root, ShuffleMode mode, TreeChoice trees) {
        return new ShuffleSpec(77L, "job_1_0001", 3, 0, root, mode, trees, new TreeSet<>(List.of("attempt_1_0001_m_000000_0")));
    }

    @ParameterizedTest(name = "{0} {1} {2} failed={3}")
    @CsvSource({
        "3x3x3,camdoop,six,''", "3x3x3,noagg,shortest,''", "3x3x3,direct,six,''", "4x4x4,camdoop,six,''",
        "3x3x3,camdoop,six,1;1;1", "4x3x5,camdoop,six,0;0;1 2;2;2", "3x3x3,direct,six,2;2;2", "2x2x2,camdoop,six,''",
        "1x1x1,camdoop,six,''", "5x1x1,camdoop,shortest,3;0;0", "3x3x3,camdoop,six,2;1;1",
        "3x3x3,noagg,six,2;1;1 1;0;1", "4x4x4,camdoop,six,1;0;2 0;0;3"})
    void theStreamGraphIsConsistentAndEveryMapOutputIsReadOncePerStripe(String s, String mode, String trees,
            String failed) {
        TorusShape shape = TorusShape.parse(s);
        FailureView view = FailureView.none(shape);
        for (String f : failed.isEmpty() ? new String[0] : failed.split(" ")) {
            view = view.withFailed(Coord.parse(f.replace(';', ',')));
        }
        Coord root = shape.coord(shape.size() / 2);
        ShufflePlan plan = new ShufflePlan(spec(root, ShuffleMode.parse(mode), TreeChoice.parse(trees)), view);
        int stripes = plan.treeCount();

        Map<StreamEdge, Integer> sent = new HashMap<>();
        Map<StreamEdge, Integer> received = new HashMap<>();
        Map<Integer, List<VertexPlan.LocalSlice>> slicesByServer = new HashMap<>();
        Map<StreamEdge, VertexPlan> receiverOf = new HashMap<>();
        List<VertexPlan> roots = new ArrayList<>();
        List<VertexPlan> all = new ArrayList<>();
        for (int host = 0; host < shape.size(); host++) {
            final int server = host;
            List<VertexPlan> mine = plan.forServer(server);
            if (!view.isLive(server)) {
                assertEquals(List.of(), mine, "a dead server runs nothing");
            }
            for (VertexPlan v : mine) {
                all.add(v);
                if (v.isRoot()) {
                    roots.add(v);
                    assertEquals(plan.rootHost(), server);
                }
                v.output().ifPresent(e -> {
                    assertEquals(server, e.senderHost());
                    sent.merge(e, 1, Integer::sum);
                });
                for (StreamEdge in : v.inputs()) {
                    assertEquals(server, in.receiverHost());
                    received.merge(in, 1, Integer::sum);
                    receiverOf.put(in, v);
                }
                v.local().ifPresent(l -> slicesByServer.computeIfAbsent(server, k -> new ArrayList<>()).add(l));
            }
        }
        assertEquals(1, roots.size(), "exactly one root vertex");
        assertEquals(sent.keySet(), received.keySet(), "every stream has a sender and a receiver");
        assertTrue(sent.values().stream().allMatch(n -> n == 1) && received.values().stream().allMatch(n -> n == 1));

        for (int server = 0; server < shape.size(); server++) {
            if (!view.isLive(server)) {
                assertTrue(!slicesByServer.containsKey(server));
                continue;
            }
            List<VertexPlan.LocalSlice> slices = slicesByServer.get(server);
            if (server == plan.rootHost() && view.isLive(shape.index(root))) {
                assertEquals(List.of(VertexPlan.LocalSlice.all()), slices, "the root reads its output whole");
                continue;
            }
            Set<Integer> covered = new HashSet<>();
            for (VertexPlan.LocalSlice l : slices) {
                assertEquals(stripes, l.stripes());
                assertTrue(covered.add(l.stripe()), "stripe read twice on " + shape.coord(server));
            }
            assertEquals(stripes, covered.size(), "every stripe of " + shape.coord(server) + " read once");
        }

        // Every non-root vertex drains into the root.
        for (VertexPlan v : all) {
            VertexPlan at = v;
            int steps = 0;
            while (!at.isRoot()) {
                at = receiverOf.get(at.output().orElseThrow());
                assertTrue(at != null && steps++ < 4 * shape.size(), "stream leads nowhere");
            }
        }
        assertEquals(ShuffleMode.parse(mode) == ShuffleMode.DIRECT ? view.liveCount() - 1 : roots.get(0).inputs().size(),
                roots.get(0).inputs().size());
    }

    /**
     * A root's neighbour failed: the tree that entered the root over that link is left out and the keys are striped
     * over the other trees, each still entering the root over its own link, so no link of the root carries two
     * stripes (kept, the tree's failed vertex would be adopted by the root and its whole stripe would come in over the
     * other trees' links). The root's own server is the one of the two that still reads everything.
     */
    @ParameterizedTest(name = "{0} failed={1}")
    @CsvSource({"3x3x3,2;1;1,5", "3x3x3,2;1;1 1;0;1,4", "4x4x4,1;0;2 0;0;3,4", "3x3x3,0;0;0,6", "3x3x3,1;1;1,6"})
    void aTreeWhoseLinkIntoTheRootDiedIsLeftOut(String s, String failed, int trees) {
        TorusShape shape = TorusShape.parse(s);
        FailureView view = FailureView.none(shape);
        for (String f : failed.split(" ")) {
            view = view.withFailed(Coord.parse(f.replace(';', ',')));
        }
        Coord root = shape.coord(shape.size() / 2);
        ShufflePlan plan = new ShufflePlan(spec(root, ShuffleMode.CAMDOOP, TreeChoice.SIX), view);

        assertEquals(trees, plan.treeCount());
        if (!view.isLive(shape.index(root))) {
            return; // the root's own failure ends its shuffle: nothing to balance
        }
        VertexPlan rootVertex = plan.forServer(plan.rootHost()).get(0);
        assertTrue(rootVertex.isRoot());
        assertEquals(trees, rootVertex.inputs().size());
        Set<Integer> senders = new HashSet<>();
        for (StreamEdge in : rootVertex.inputs()) {
            assertTrue(view.isLive(in.senderHost()) && in.senderHost() != plan.rootHost(),
                    "tree " + in.tree() + " enters the root from " + shape.coord(in.senderHost()));
            assertTrue(senders.add(in.senderHost()), "two trees enter the root from " + shape.coord(in.senderHost()));
        }
    }

    /**
     * A repair generation plans only the failed vertex's subtree in each tree it rebuilds, striped as the generation
     * it repairs (six stripes, even when a root's neighbour failed, where a whole generation would drop to five), with
     * no root vertex: the failed vertex runs on its parent's server, its stream goes to that parent on the same server
     * (the parent runs in the generation repaired), every planned vertex drains into it, and nothing outside the
     * subtrees is planned again.
     */
    @ParameterizedTest(name = "{0}, trees with its children from the {1}th")
    @CsvSource({"1;1;1,0", "1;1;1,1", "2;2;1,0", "1;2;0,0"})
    void aRepairPlansOnlyTheFailedVertexsSubtreesOnTheRepairedStripes(String failed, int from) {
        TorusShape shape = TorusShape.parse("3x3x3");
        Coord root = new Coord(0, 0, 0);
        int f = shape.index(Coord.parse(failed.replace(';', ',')));
        SpanningTrees bare = TreeChoice.SIX.build(shape, shape.index(root));
        int[] withChildren = java.util.stream.IntStream.range(0, 6).filter(t -> bare.children(t, f).length > 0)
                .toArray();
        int[] repaired = java.util.Arrays.copyOfRange(withChildren, from, withChildren.length);
        assertTrue(repaired.length > 0, "a tree to repair");
        ShuffleSpec base = spec(root, ShuffleMode.CAMDOOP, TreeChoice.SIX);
        ShuffleSpec repair = base.withGeneration(base.generation().repairing(new org.camdoop.shuffle.protocol
                .TreeRepair(f, repaired, java.util.Arrays.stream(repaired).mapToObj(t -> java.util.Optional.<byte[]>of(
                new byte[] {(byte) t})).toList()), new int[] {f}, new long[] {1}));
        ShufflePlan plan = new ShufflePlan(repair, FailureView.none(shape).withFailed(shape.coord(f)));

        assertEquals(6, plan.treeCount(), "the repaired generation's stripes");
        List<StreamEdge> tops = plan.repairedInputs();
        assertEquals(repaired.length, tops.size());
        int expected = 0;
        for (int k = 0; k < repaired.length; k++) {
            int t = repaired[k];
            StreamEdge top = tops.get(k);
            assertEquals(List.of(t, f), List.of(top.tree(), top.sendingVertex()));
            assertEquals(bare.parent(t, f), top.receiverHost(), "the parent's own server takes the stream");
            assertEquals(top.receiverHost(), top.senderHost(), "the failed vertex runs on its parent's server");
            for (int v = 0; v < shape.size(); v++) {
                expected += below(bare, t, v, f) ? 1 : 0;
            }
        }
        Map<StreamEdge, VertexPlan> receiverOf = new HashMap<>();
        List<VertexPlan> all = new ArrayList<>();
        for (int server = 0; server < shape.size(); server++) {
            for (VertexPlan v : plan.forServer(server)) {
                assertTrue(!v.isRoot() && below(bare, v.tree(), v.vertex(), f)
                        && java.util.Arrays.stream(repaired).anyMatch(t -> t == v.tree()), "planned " + v);
                assertTrue(server != f, "the failed server runs nothing");
                v.local().ifPresent(l -> assertEquals(new VertexPlan.LocalSlice(v.tree(), 6), l));
                v.inputs().forEach(e -> receiverOf.put(e, v));
                all.add(v);
            }
        }
        assertEquals(expected, all.size(), "every vertex of each repaired subtree, once");
        assertTrue(all.size() > repaired.length, "the failed vertex has children in the trees repaired");
        assertTrue(all.size() < repaired.length * (shape.size() - 1), "only subtrees, not whole trees");
        for (VertexPlan v : all) {
            VertexPlan at = v;
            int steps = 0;
            while (at != null && !tops.contains(at.output().orElseThrow())) {
                at = receiverOf.get(at.output().get());
                assertTrue(steps++ < shape.size(), "stream leads nowhere");
            }
            assertTrue(at != null, v + " does not drain into the failed vertex's parent");
        }
    }

    /** Whether {@code v} is {@code top} or below it in tree {@code t}. */
    private static boolean below(SpanningTrees trees, int t, int v, int top) {
        for (int u = v; u >= 0; u = trees.parent(t, u)) {
            if (u == top) {
                return true;
            }
        }
        return false;
    }
}
