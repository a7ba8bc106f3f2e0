package org.camdoop.shuffle.service.vertex;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.io.RawComparator;
import org.camdoop.shuffle.aggregation.ChunkQueueRun;
import org.camdoop.shuffle.aggregation.SortedRun;
import org.camdoop.shuffle.protocol.EndOfStream;

/**
 * A vertex's child streams as its merge sees them: one run per child, the chunks it holds until the merge has moved
 * past them, each child's end, and, on a vertex whose inputs a tree repair may rebind ({@code wholeGroups}), the rule
 * that hands the merge whole key groups only ({@link WholeGroupInput}).
 *
 * <p>A child's stream may be replaced (a tree repair): the input then takes events of the replacing stream only, told
 * apart by the number each stream's events carry (its <em>binding</em>: 0 for the streams the vertex was wired with,
 * the repair generation's number after). Events of a replaced stream, and chunks or ends after an input's end, are
 * released and dropped. Owned by the vertex's thread.
 */
final class ChildInputs {

    private final ChunkQueueRun[] runs;
    private final ChunkInputs held;
    private final EndOfStream[] ends;
    private final int[] bindings;
    /** Null unless inputs may be rebound. */
    private final WholeGroupInput[] whole;

    /**
     * @param wholeGroups the job's sort order and the largest group held back, if inputs may be rebound; else empty
     */
    ChildInputs(String label, int inputs, Optional<RawComparator<Object>> wholeGroups, int maxHeldBytes) {
        this.runs = new ChunkQueueRun[inputs];
        this.whole = wholeGroups.isPresent() ? new WholeGroupInput[inputs] : null;
        for (int i = 0; i < inputs; i++) {
            runs[i] = new ChunkQueueRun(label + " child " + i);
            if (whole != null) {
                whole[i] = new WholeGroupInput(wholeGroups.get(), maxHeldBytes, label + " child " + i);
            }
        }
        this.held = new ChunkInputs(inputs);
        this.ends = new EndOfStream[inputs];
        this.bindings = new int[inputs];
    }

    int size() {
        return runs.length;
    }

    List<SortedRun> runs() {
        return List.of(runs);
    }

    /** Whether events of {@code binding} are for input {@code input}'s current stream, which has not ended. */
    boolean takes(int input, int binding) {
        return bindings[input] == binding && ends[input] == null;
    }

    /** A chunk arrived: queued for the merge, or released at once if it is not for the input's current stream. */
    void chunk(int input, int binding, InboundChunk chunk) throws IOException {
        if (!takes(input, binding)) {
            chunk.release().run();
            return;
        }
        held.add(input, chunk);
        if (whole != null) {
            whole[input].offer(chunk.bytes(), runs[input]);
        } else {
            runs[input].offer(chunk.bytes());
        }
    }

    /** The input's stream ended (ignored if it is not the current stream, or the input ended already). */
    void end(int input, int binding, EndOfStream end) {
        if (!takes(input, binding)) {
            return;
        }
        ends[input] = end;
        if (whole != null) {
            whole[input].finish(runs[input]);
        } else {
            runs[input].finish();
        }
    }

    /**
     * Replaces input {@code input}'s stream by the one numbered {@code binding}: what the merge was given stays, the
     * group held back is dropped, and the replacing stream must resume after {@link InputCut#lastKey()}. An input
     * that ended already keeps its end; one cut for that binding already stays as it is.
     */
    InputCut cut(int input, int binding) {
        if (whole == null) {
            throw new IllegalStateException("input " + input + " cannot be rebound");
        }
        if (ends[input] != null) {
            return new InputCut(true, Optional.empty(), true);
        }
        if (bindings[input] >= binding) {
            // Asked again (a CUT sent again): cut already, perhaps taking the replacing stream by now. Cutting again
            // would drop the group the new stream's input holds back; the answer is not used.
            return new InputCut(false, whole[input].lastKey(), whole[input].exact());
        }
        bindings[input] = binding;
        whole[input].cut();
        return new InputCut(false, whole[input].lastKey(), whole[input].exact());
    }

    EndOfStream[] ends() {
        return ends.clone();
    }

    /** Gives back the chunks the merge has moved past; {@code blocked} is the input it waits for, or -1. */
    void releaseConsumed(int blocked) {
        for (int i = 0; i < runs.length; i++) {
            // The chunk a run is positioned in may still be being read (loaded is not finished), unless the run has
            // drained it: it is the input the merge now waits for, or it has returned its end. Chunks before it are
            // done with.
            long consumed = runs[i].chunksConsumed();
            boolean drained = i == blocked || runs[i].ended();
            held.releaseUpTo(i, drained ? consumed : consumed - 1);
        }
    }

    void releaseAll() {
        held.releaseAll();
    }
}
