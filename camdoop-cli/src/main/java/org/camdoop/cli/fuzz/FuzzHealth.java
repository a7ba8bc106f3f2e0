package org.camdoop.cli.fuzz;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.camdoop.shuffle.daemon.CamdoopDaemon;
import org.camdoop.torus.transport.stream.BufferBudget;

/**
 * The daemons' state that an attack must leave as it found it: their long-lived threads (event loops, the local
 * endpoint's acceptor, vertex and housekeeping threads), the buffers reserved in each transport's budget once no
 * stream is open, Netty's direct memory in use, and the heap in use after a collection.
 */
record FuzzHealth(List<Thread> threads, List<Integer> reservedBuffers, long directBytes, long heapBytes) {

    /** What the daemons look like now, once every stream of theirs has closed (waiting at most 60 s for that). */
    static FuzzHealth of(List<CamdoopDaemon> daemons) throws InterruptedException, TimeoutException {
        List<Integer> reserved = new ArrayList<>();
        for (CamdoopDaemon d : daemons) {
            BufferBudget budget = d.node().budget();
            try {
                budget.whenNoOpenStreams().get(60, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException(e);
            }
            reserved.add(budget.reservedBuffers());
        }
        List<Thread> threads = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            String n = t.getName();
            // Connection threads (camdoop-local-N) come and go with their connections; the rest live as long as
            // their daemon.
            boolean perConnection = n.startsWith("camdoop-local-") && !n.equals("camdoop-local-accept");
            if ((n.startsWith("camdoop-") || n.contains("EventLoopGroup")) && !perConnection) {
                threads.add(t);
            }
        }
        System.gc();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        return new FuzzHealth(threads, reserved, nettyDirectBytes(), memory.getHeapMemoryUsage().getUsed());
    }

    private static long nettyDirectBytes() {
        ByteBufAllocator a = ByteBufAllocator.DEFAULT;
        return a instanceof ByteBufAllocatorMetricProvider m ? m.metric().usedDirectMemory() : -1;
    }

    /** Threads of the baseline that are gone now: each one a daemon thread the attack killed. */
    List<String> threadsDiedSince() {
        return threads.stream().filter(t -> !t.isAlive()).map(Thread::getName).sorted().toList();
    }
}
