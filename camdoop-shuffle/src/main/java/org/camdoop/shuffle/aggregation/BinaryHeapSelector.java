package org.camdoop.shuffle.aggregation;

/** A binary min-heap of input indices: about 2 log2(k) key comparisons per record. */
final class BinaryHeapSelector implements MinSelector {
    private final InputOrder order;
    private final int[] heap;
    private int size;

    BinaryHeapSelector(InputOrder order) {
        this.order = order;
        this.heap = new int[order.size()];
    }

    @Override
    public void build(int[] liveInputs, int count) {
        System.arraycopy(liveInputs, 0, heap, 0, count);
        size = count;
        for (int i = size / 2 - 1; i >= 0; i--) {
            siftDown(i);
        }
    }

    @Override
    public int winner() {
        return size == 0 ? -1 : heap[0];
    }

    @Override
    public void winnerAdvanced() {
        siftDown(0);
    }

    @Override
    public void winnerEnded() {
        heap[0] = heap[--size];
        siftDown(0);
    }

    private void siftDown(int i) {
        int item = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && order.less(heap[child + 1], heap[child])) {
                child++;
            }
            if (!order.less(heap[child], item)) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = item;
    }
}
