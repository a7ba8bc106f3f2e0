package org.camdoop.shuffle.service.vertex;

import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import org.camdoop.shuffle.aggregation.JobAggregationSpec;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.service.plan.VertexPlan;

/**
 * Everything a vertex is built from.
 *
 * @param shuffle     the shuffle it belongs to
 * @param plan        its inputs, local slice and output edge
 * @param aggregation the job's comparator, serializers and (in camdoop mode) combiner
 * @param output      where its merged stream goes
 * @param urgency     told when the merge blocks on a child stream (and when it stops waiting for it)
 * @param executor    runs the vertex; a vertex never runs on two threads at once
 * @param pumpRecords records merged per turn before the vertex yields its thread to other vertices
 * @param nanoClock   the clock the vertex times its waits for credit with ({@link System#nanoTime} but in tests)
 * @param rebindHeldBytes on a vertex whose inputs a tree repair may rebind (any with children but the root): the
 *                    largest key group each input holds back so that it hands the merge whole groups only
 *                    ({@link WholeGroupInput}); 0 for any other vertex
 */
public record VertexContext(ShuffleSpec shuffle, VertexPlan plan, JobAggregationSpec aggregation, VertexOutput output,
        UrgencySignal urgency, Executor executor, int pumpRecords, LongSupplier nanoClock, int rebindHeldBytes) {

    /** A vertex whose inputs are never rebound. */
    public VertexContext(ShuffleSpec shuffle, VertexPlan plan, JobAggregationSpec aggregation, VertexOutput output,
            UrgencySignal urgency, Executor executor, int pumpRecords, LongSupplier nanoClock) {
        this(shuffle, plan, aggregation, output, urgency, executor, pumpRecords, nanoClock, 0);
    }

    public VertexContext {
        if (rebindHeldBytes < 0 || (rebindHeldBytes > 0 && plan.isRoot())) {
            throw new IllegalArgumentException("a root vertex's inputs are never rebound (a neighbour's failure"
                    + " restarts the whole shuffle), and no bound is negative: " + rebindHeldBytes);
        }
    }

    /** Whether a tree repair may replace this vertex's input streams. */
    public boolean rebindable() {
        return rebindHeldBytes > 0;
    }

    /** Marks a child stream urgent: the sender should serve it before its other streams. */
    @FunctionalInterface
    public interface UrgencySignal {
        void urgent(int childInput, boolean urgent);
    }

    /** A label for logs and errors: {@code job_..._0001 p3 tree 2 vertex 1,0,2}. */
    public String label(String vertexCoord) {
        return shuffle.jobId() + " p" + shuffle.partition() + (plan.isRoot() ? " root" : " tree " + plan.tree())
                + " vertex " + vertexCoord;
    }
}
