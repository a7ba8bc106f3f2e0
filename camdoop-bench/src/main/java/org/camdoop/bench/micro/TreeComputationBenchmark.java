package org.camdoop.bench.micro;

import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.plan.ShufflePlan;
import org.camdoop.shuffle.service.plan.VertexPlan;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.DisjointTrees;
import org.camdoop.torus.trees.SpanningTrees;
import org.camdoop.torus.trees.TreeChoice;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The tree computation of paper section 4.1 on large tori. {@link #buildAndWalkTrees}: build the six
 * {@link DisjointTrees} for a root and ask the parent and the children of every vertex in every tree (the whole
 * graph, more than any one server needs). {@link #planOneServer}: what a daemon computes per shuffle, a
 * {@link ShufflePlan} for the spec and the failure view (no failures) and its own part of it
 * ({@link ShufflePlan#forServer}), here for the server next to the root.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class TreeComputationBenchmark {
    /** Torus shape: 512 and 4096 servers. */
    @Param({"8x8x8", "16x16x16"})
    public String shape;

    private TorusShape torus;
    private int root;
    private ShuffleSpec spec;
    private FailureView view;

    /** Parses the shape; the root sits at index 0 (the trees are the same up to translation for any root). */
    @Setup
    public void setUp() {
        torus = TorusShape.parse(shape);
        root = 0;
        spec = new ShuffleSpec(0x5EED_CAFEL, "job_1700000000000_0001", 0, 0, torus.coord(root), ShuffleMode.CAMDOOP,
                TreeChoice.SIX, new TreeSet<>());
        view = FailureView.none(torus);
    }

    /** Builds the trees and walks parent and children of every vertex of every tree; returns the child links seen. */
    @Benchmark
    public long buildAndWalkTrees(Blackhole bh) {
        return walk(new DisjointTrees(torus, root), bh);
    }

    /** Builds the shuffle plan and the part of it that one (non-root) server runs. */
    @Benchmark
    public List<VertexPlan> planOneServer() {
        return new ShufflePlan(spec, view).forServer(root + 1);
    }

    /** Every vertex's parent and children in every tree go to {@code bh}; returns the number of children found. */
    static long walk(SpanningTrees trees, Blackhole bh) {
        long childLinks = 0;
        int vertices = trees.shape().size();
        for (int t = 0; t < trees.count(); t++) {
            for (int v = 0; v < vertices; v++) {
                bh.consume(trees.parent(t, v));
                int[] children = trees.children(t, v);
                bh.consume(children);
                childLinks += children.length;
            }
        }
        return childLinks;
    }

    TorusShape torus() {
        return torus;
    }

    int root() {
        return root;
    }
}
