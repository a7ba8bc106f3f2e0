package org.camdoop.sim;

import java.util.Arrays;

/**
 * The event loop of the fluid model. Time advances in steps; in each step every unfinished flow has a rate, max-min
 * fair on its link, and sends {@code rate x dt}. The trees are pipelines: a vertex merges its inputs in key order, so
 * the fraction of its output it has sent can never exceed the smallest fraction any of its inputs has delivered (its
 * own map output is there from the start). A flow that has caught up with its slowest input ("blocked") can only go
 * as fast as that input, so its link share is capped there and the rest is given to the other flows on the link.
 *
 * <p>Steps end at the next flow completion or after a quantum of about 1/{@value #STEPS_PER_BOUND} of the busiest
 * link's time, whichever is first (never shorter than 1/{@value #MIN_STEP_DIVISOR} of a quantum, so near-simultaneous
 * completions share a step); a flow's finish time is interpolated within its step.
 */
public final class FluidSimulation {

    private static final int STEPS_PER_BOUND = 400;
    private static final int MIN_STEP_DIVISOR = 20;
    private static final double EPS = 1e-9;

    private final TreeFlows flows;
    private final FluidNetwork network;

    public FluidSimulation(TreeFlows flows, double linkBytesPerSecond) {
        this.flows = flows;
        this.network = new FluidNetwork(flows.links(), linkBytesPerSecond, flows.linkArray());
    }

    public SimResult run() {
        int n = flows.count();
        double busiest = flows.busiestLinkBytes();
        if (n == 0) {
            return new SimResult(0, 0, 0, 0, 0, 0);
        }
        double quantum = busiest / network.capacity() / STEPS_PER_BOUND;
        double[] sent = new double[n];
        double[] finish = new double[n];
        boolean[] active = new boolean[n];
        Arrays.fill(active, true);
        boolean[] blocked = new boolean[n];
        double[] unlimited = new double[n];
        Arrays.fill(unlimited, Double.POSITIVE_INFINITY);
        double[] caps = new double[n];
        double[] fair = new double[n];
        double[] rates = new double[n];
        int remaining = n;
        int steps = 0;
        double now = 0;
        while (remaining > 0) {
            steps++;
            network.allocate(active, unlimited, fair);
            // Bottom up: a blocked flow's usable rate follows its slowest caught-up input, computed just before it.
            for (int f = 0; f < n; f++) {
                if (!active[f]) {
                    continue;
                }
                double frac = sent[f] / flows.volume(f);
                double usable = fair[f];
                blocked[f] = false;
                for (int i = 0; i < flows.childCount(f); i++) {
                    int c = flows.child(f, i);
                    if (active[c] && sent[c] / flows.volume(c) <= frac + EPS) {
                        blocked[f] = true;
                        usable = Math.min(usable, flows.volume(f) * caps[c] / flows.volume(c));
                    }
                }
                caps[f] = usable;
            }
            for (int f = 0; f < n; f++) {
                if (!blocked[f]) {
                    caps[f] = Double.POSITIVE_INFINITY;
                }
            }
            network.allocate(active, caps, rates);
            double dt = quantum;
            for (int f = 0; f < n; f++) {
                if (active[f] && rates[f] > 0) {
                    dt = Math.min(dt, (flows.volume(f) - sent[f]) / rates[f]);
                }
            }
            dt = Math.max(dt, quantum / MIN_STEP_DIVISOR);
            boolean progress = false;
            for (int f = 0; f < n; f++) {
                if (!active[f]) {
                    continue;
                }
                double limit = flows.volume(f);
                double inputsDone = 0;
                for (int i = 0; i < flows.childCount(f); i++) {
                    int c = flows.child(f, i);
                    limit = Math.min(limit, flows.volume(f) * sent[c] / flows.volume(c));
                    inputsDone = Math.max(inputsDone, finish[c]);
                }
                double before = sent[f];
                double after = Math.min(before + rates[f] * dt, limit);
                if (after > before) {
                    progress = true;
                }
                sent[f] = after;
                if (after >= flows.volume(f) * (1 - EPS)) {
                    sent[f] = flows.volume(f);
                    active[f] = false;
                    remaining--;
                    double reached = rates[f] > 0 ? now + (flows.volume(f) - before) / rates[f] : now + dt;
                    finish[f] = Math.max(Math.min(reached, now + dt), inputsDone);
                }
            }
            if (!progress) {
                throw new IllegalStateException("the simulation stalled at t=" + now + " with " + remaining
                        + " flows unfinished");
            }
            now += dt;
        }
        double end = 0;
        for (double t : finish) {
            end = Math.max(end, t);
        }
        return new SimResult(end, flows.bytesIntoRoots(), busiest, n, flows.links(), steps);
    }
}
