package org.camdoop.shuffle.aggregation;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.io.RawComparator;
import org.camdoop.shuffle.records.RawBytes;

/**
 * Merges sorted runs into one sorted run under the job's RawComparator, keeping the invariant of on-path aggregation:
 * a key is emitted only when every input has a current record (whose key is therefore &gt;= it) or has ended. When an
 * input has no data yet, {@link #advance()} returns {@link Advance#NO_DATA_YET} and {@link #blockedInput()} names the
 * input to wait for; nothing is emitted until that input delivers or ends. This is conservative by one record: an
 * input blocked right after showing key k also holds back further records equal to k.
 *
 * <p>Records pass through without copying: {@link #key()} and {@link #value()} are the winning input's own views,
 * valid until the next advance (the winner is advanced lazily, at the start of the next call). They are taken from the
 * winner once, when it wins: the inputs are of several classes, so every call on one is an interface dispatch the JIT
 * cannot inline, and the consumer asks for the key and value of every record. For the same reason an input that is a
 * {@link ChunkedRun} (a child's stream, a local stripe, bytes in memory) is advanced through that class, whose
 * per-record step is final: the call binds statically and is inlined.
 *
 * <p>Single-threaded: owned by the thread driving the vertex.
 */
public final class KWayMerger implements SortedRun {
    private enum State { PRIMING, MERGING, ENDED }

    private final SortedRun[] inputs;
    /** The inputs that are {@link ChunkedRun}s, by index; null for the others. */
    private final ChunkedRun[] chunked;
    private final InputOrder order;
    private final MinSelector selector;
    private final AggregationCounters counters;
    private final int[] live;
    /** The value views of inputs with {@link SortedRun#stableViews stable views}, taken once; null for the others. */
    private final RawBytes[] values;
    private State state = State.PRIMING;
    private int primed;
    private int liveCount;
    /** The input whose record was returned last and must be advanced before the next one, or -1. */
    private int current = -1;
    /** The input whose record was returned last, kept after the merge ended (its head is still that key); or -1. */
    private int returnedLast = -1;
    private int blocked = -1;
    private RawBytes currentKey;
    private RawBytes currentValue;

    /**
     * Merges {@code inputs} (each sorted by {@code comparator}); counts every record taken from them in
     * {@code counters} as a record in.
     */
    public KWayMerger(List<? extends SortedRun> inputs, RawComparator<Object> comparator, MergeStrategy strategy,
            AggregationCounters counters) {
        this.inputs = inputs.toArray(new SortedRun[0]);
        this.order = new InputOrder(inputs, comparator);
        this.selector = strategy.newSelector(order);
        this.counters = counters;
        this.live = new int[this.inputs.length];
        this.values = new RawBytes[this.inputs.length];
        this.chunked = new ChunkedRun[this.inputs.length];
        for (int i = 0; i < values.length; i++) {
            if (this.inputs[i] instanceof ChunkedRun c) {
                chunked[i] = c;
            }
            if (this.inputs[i].stableViews()) {
                values[i] = this.inputs[i].value();
            }
        }
    }

    @Override
    public Advance advance() throws IOException {
        switch (state) {
            case PRIMING:
                while (primed < inputs.length) {
                    Advance first = inputs[primed].advance();
                    if (first == Advance.NO_DATA_YET) {
                        blocked = primed;
                        return Advance.NO_DATA_YET;
                    }
                    if (first == Advance.RECORD) {
                        order.refresh(primed);
                        live[liveCount++] = primed;
                    }
                    primed++;
                }
                selector.build(live, liveCount);
                state = State.MERGING;
                return emitWinner();
            case MERGING:
                if (current >= 0) {
                    ChunkedRun c = chunked[current];
                    Advance next = c != null ? c.advance() : inputs[current].advance();
                    if (next == Advance.NO_DATA_YET) {
                        blocked = current;
                        return Advance.NO_DATA_YET;
                    }
                    if (next == Advance.RECORD) {
                        order.refresh(current);
                        selector.winnerAdvanced();
                    } else {
                        selector.winnerEnded();
                    }
                    current = -1;
                }
                return emitWinner();
            case ENDED:
                return Advance.END;
            default:
                throw new AssertionError(state);
        }
    }

    private Advance emitWinner() {
        blocked = -1;
        int winner = selector.winner();
        if (winner < 0) {
            state = State.ENDED;
            return Advance.END;
        }
        current = winner;
        returnedLast = winner;
        currentKey = order.key(winner);
        currentValue = values[winner] != null ? values[winner] : inputs[winner].value();
        counters.recordIn(currentKey.length(), currentValue.length());
        return Advance.RECORD;
    }

    /** The input the merge is waiting for after {@link Advance#NO_DATA_YET}; -1 otherwise. */
    public int blockedInput() {
        return blocked;
    }

    /** The input the current record came from (valid after {@link Advance#RECORD}). */
    public int currentInput() {
        return current;
    }

    @Override
    public RawBytes key() {
        return currentKey;
    }

    @Override
    public RawBytes value() {
        return currentValue;
    }

    /**
     * The current record's key as the merge compared it (valid after {@link Advance#RECORD}, until the next advance):
     * a consumer grouping by an order of the same {@link KeyOrder#sameNormalForm form} copies it instead of reading
     * the key again.
     */
    NormalizedKey currentComparedKey() {
        return order.head(current);
    }

    /**
     * How far through the key space the merge has come: the first word of the key it returned last
     * ({@link NormalizedKey#firstWord}, unsigned), 0 before its first record and for keys without a byte order.
     */
    public long frontier() {
        return returnedLast >= 0 ? order.head(returnedLast).firstWord() : 0;
    }

    /** The order the merge compares keys in. */
    KeyOrder keyOrder() {
        return order.order();
    }

    /** Closes every input, reporting the first failure after trying them all. */
    @Override
    public void close() throws IOException {
        state = State.ENDED;
        IOException first = null;
        for (SortedRun input : inputs) {
            try {
                input.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
