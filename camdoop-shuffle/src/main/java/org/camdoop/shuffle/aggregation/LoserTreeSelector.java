package org.camdoop.shuffle.aggregation;

import java.util.Arrays;

/**
 * A tournament (loser) tree over input indices: exactly ceil(log2(k)) comparisons per record, replayed from the
 * winner's leaf. Leaf {@code i} sits at implicit position {@code k + i}; internal node {@code n} keeps the loser of its
 * match; {@code tree[0]} is the overall winner. Ended inputs lose every match.
 */
final class LoserTreeSelector implements MinSelector {
    private final InputOrder order;
    private final int k;
    private final int[] tree;
    private final boolean[] ended;

    LoserTreeSelector(InputOrder order) {
        this.order = order;
        this.k = order.size();
        this.tree = new int[Math.max(1, k)];
        this.ended = new boolean[k];
    }

    @Override
    public void build(int[] liveInputs, int count) {
        Arrays.fill(ended, true);
        for (int i = 0; i < count; i++) {
            ended[liveInputs[i]] = false;
        }
        tree[0] = k == 0 ? -1 : play(1);
    }

    /** Plays the subtree under {@code node}, storing losers, and returns its winner. */
    private int play(int node) {
        if (node >= k) {
            return node - k;
        }
        int left = play(2 * node);
        int right = play(2 * node + 1);
        if (beats(left, right)) {
            tree[node] = right;
            return left;
        }
        tree[node] = left;
        return right;
    }

    private boolean beats(int a, int b) {
        if (ended[a]) {
            return false;
        }
        return ended[b] || order.less(a, b);
    }

    @Override
    public int winner() {
        int w = tree[0];
        return w < 0 || ended[w] ? -1 : w;
    }

    @Override
    public void winnerAdvanced() {
        replay(tree[0]);
    }

    @Override
    public void winnerEnded() {
        ended[tree[0]] = true;
        replay(tree[0]);
    }

    private void replay(int input) {
        int winner = input;
        for (int node = (k + input) / 2; node >= 1; node /= 2) {
            if (beats(tree[node], winner)) {
                int loser = winner;
                winner = tree[node];
                tree[node] = loser;
            }
        }
        tree[0] = winner;
    }
}
