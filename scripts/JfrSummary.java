import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Text summary of a JFR recording (e.g. one written by {@code camdoop bench shuffle --profile FILE}): where the CPU
 * samples fall (top self methods, top total methods, top stacks, per thread group), what allocates, where threads park
 * or block, and (with --timeline) the thread starts with their times. JDK 17's {@code jfr} tool has no aggregation
 * (no {@code jfr view}), hence this. Run as a single-file source program, no build needed:
 *
 * <pre>
 *   java scripts/JfrSummary.java FILE.jfr [--top N] [--depth D] [--window THREAD_PREFIX] [--threads THREAD_PREFIX]
 *       [--timeline]
 * </pre>
 *
 * --window restricts every event to the lifetime of the last thread whose name starts with THREAD_PREFIX (e.g.
 * bench-reducer- for the timed part of a whole-process recording). Thread groups are thread names with trailing digits
 * and dashes removed. --threads keeps only samples, allocations and waits of threads whose name starts with
 * THREAD_PREFIX (e.g. camdoop-vertex). Not part of the product: a tool for docs/performance.md.
 */
public final class JfrSummary {

    private int top = 25;
    private int depth = 4;
    private String window;
    private boolean timeline;
    private String threads;

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: java scripts/JfrSummary.java FILE.jfr [--top N] [--depth D] "
                    + "[--window THREAD_PREFIX] [--threads THREAD_PREFIX] [--timeline]");
            System.exit(2);
        }
        JfrSummary s = new JfrSummary();
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--top" -> s.top = Integer.parseInt(args[++i]);
                case "--depth" -> s.depth = Integer.parseInt(args[++i]);
                case "--window" -> s.window = args[++i];
                case "--timeline" -> s.timeline = true;
                case "--threads" -> s.threads = args[++i];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        s.summarise(RecordingFile.readAllEvents(Path.of(args[0])));
    }

    private void summarise(List<RecordedEvent> all) {
        Instant from = Instant.MIN;
        Instant to = Instant.MAX;
        if (window != null) {
            // The last thread of that name: a warm-up before the timed part may have run one of the same name.
            from = Instant.MIN;
            to = Instant.MIN;
            for (RecordedEvent e : all) {
                String type = e.getEventType().getName();
                RecordedThread t = type.equals("jdk.ThreadStart") || type.equals("jdk.ThreadEnd")
                        ? e.getThread("thread") : null;
                if (t != null && t.getJavaName() != null && t.getJavaName().startsWith(window)) {
                    if (type.equals("jdk.ThreadStart") && e.getStartTime().isAfter(from)) {
                        from = e.getStartTime();
                    } else if (type.equals("jdk.ThreadEnd") && e.getStartTime().isAfter(to)) {
                        to = e.getStartTime();
                    }
                }
            }
            if (from.equals(Instant.MIN) || !to.isAfter(from)) {
                throw new IllegalStateException("no thread named " + window + "* started and ended in the recording");
            }
        }
        Instant f = from;
        Instant t = to;
        List<RecordedEvent> events = all.stream()
                .filter(e -> !e.getStartTime().isBefore(f) && !e.getStartTime().isAfter(t))
                .filter(e -> threads == null || e.getEventType().getName().startsWith("jdk.Thread")
                        && !e.getEventType().getName().equals("jdk.ThreadPark") || ofThreads(e)).toList();
        Instant first = events.stream().map(RecordedEvent::getStartTime).min(Instant::compareTo).orElse(Instant.EPOCH);
        Instant last = events.stream().map(RecordedEvent::getEndTime).max(Instant::compareTo).orElse(Instant.EPOCH);
        System.out.printf(Locale.ROOT, "recording: %d events over %.3f s%s%n", events.size(),
                Duration.between(first, last).toNanos() / 1e9, window == null ? "" : " (window: " + window + "*)");

        List<RecordedEvent> samples = of(events, "jdk.ExecutionSample");
        System.out.printf(Locale.ROOT, "%n== CPU samples (jdk.ExecutionSample): %d%n", samples.size());
        Map<String, Double> byGroup = new HashMap<>();
        Map<String, Double> self = new HashMap<>();
        Map<String, Double> total = new HashMap<>();
        Map<String, Double> stacks = new HashMap<>();
        Map<String, Double> camdoopSelf = new HashMap<>();
        for (RecordedEvent e : samples) {
            byGroup.merge(group(e.getThread("sampledThread")), 1.0, Double::sum);
            List<RecordedFrame> frames = frames(e.getStackTrace());
            if (frames.isEmpty()) {
                continue;
            }
            self.merge(method(frames.get(0)), 1.0, Double::sum);
            Set<String> seen = new HashSet<>();
            for (RecordedFrame fr : frames) {
                if (seen.add(method(fr))) {
                    total.merge(method(fr), 1.0, Double::sum);
                }
            }
            stacks.merge(stack(frames, depth), 1.0, Double::sum);
            // The first project frame on the stack: which of our methods the time is spent under (self or callee).
            frames.stream().filter(fr -> method(fr).startsWith("org.camdoop.")).findFirst()
                    .ifPresent(fr -> camdoopSelf.merge(method(fr), 1.0, Double::sum));
        }
        print("samples per thread group", byGroup, samples.size(), "%");
        print("top self methods (top frame)", self, samples.size(), "%");
        print("top total methods (anywhere on the stack)", total, samples.size(), "%");
        print("top first org.camdoop frames (self + JDK/Netty/Hadoop callees)", camdoopSelf, samples.size(), "%");
        print("top stacks, " + depth + " frames deep", stacks, samples.size(), "%");

        List<RecordedEvent> allocs = of(events, "jdk.ObjectAllocationSample");
        Map<String, Double> allocClass = new HashMap<>();
        Map<String, Double> allocSite = new HashMap<>();
        double allocTotal = 0;
        for (RecordedEvent e : allocs) {
            if (frames(e.getStackTrace()).stream().anyMatch(fr -> method(fr).startsWith("jdk.jfr."))) {
                continue; // JFR's own start-up (Recording.start) allocates on the recording thread: not the shuffle's
            }
            double w = e.getLong("weight");
            allocTotal += w;
            allocClass.merge(e.getClass("objectClass").getName(), w, Double::sum);
            List<RecordedFrame> frames = frames(e.getStackTrace());
            allocSite.merge(frames.isEmpty() ? "?" : siteOf(frames), w, Double::sum);
        }
        System.out.printf(Locale.ROOT, "%n== allocation (jdk.ObjectAllocationSample, weighted): %.1f MB%n",
                allocTotal / 1e6);
        print("allocated bytes by class", allocClass, allocTotal, "%");
        print("allocated bytes by site (first org.camdoop frame, else top frame)", allocSite, allocTotal, "%");

        waits(events, "jdk.ThreadPark", "parked");
        waits(events, "jdk.JavaMonitorEnter", "blocked on a monitor");
        waits(events, "jdk.JavaMonitorWait", "in Object.wait");
        waits(events, "jdk.ThreadSleep", "sleeping");

        List<RecordedEvent> gcs = of(events, "jdk.GarbageCollection");
        double gcMs = gcs.stream().mapToDouble(e -> e.getDuration().toNanos() / 1e6).sum();
        System.out.printf(Locale.ROOT, "%n== GC: %d collections, %.1f ms total pause-inclusive duration%n", gcs.size(),
                gcMs);

        List<RecordedEvent> starts = of(events, "jdk.ThreadStart");
        Map<String, Double> started = new HashMap<>();
        starts.forEach(e -> started.merge(group(e.getThread("thread")), 1.0, Double::sum));
        print("threads started, by group", started, starts.size(), "");
        if (timeline) {
            System.out.printf(Locale.ROOT, "%n== timeline (ms from the first event)%n");
            for (RecordedEvent e : events.stream().filter(e -> e.getEventType().getName().equals("jdk.ThreadStart")
                    || e.getEventType().getName().equals("jdk.ThreadEnd")
                    || e.getEventType().getName().equals("jdk.GarbageCollection"))
                    .sorted((a, b) -> a.getStartTime().compareTo(b.getStartTime())).toList()) {
                String what = e.getEventType().getName().equals("jdk.GarbageCollection") ? "GC " + e.getDuration()
                        : e.getEventType().getName().substring(4) + " " + e.getThread("thread").getJavaName();
                System.out.printf(Locale.ROOT, "  %8.2f  %s%n", Duration.between(first, e.getStartTime()).toNanos() / 1e6,
                        what);
            }
        }
    }

    /** Durations of a wait event, summed by thread group and by the frame that waited (first non-JDK frame). */
    private void waits(List<RecordedEvent> events, String type, String what) {
        List<RecordedEvent> es = of(events, type);
        Map<String, Double> byGroup = new HashMap<>();
        Map<String, Double> bySite = new HashMap<>();
        double ms = 0;
        for (RecordedEvent e : es) {
            double d = e.getDuration().toNanos() / 1e6;
            ms += d;
            byGroup.merge(group(e.getThread()), d, Double::sum);
            List<RecordedFrame> frames = frames(e.getStackTrace());
            String site = frames.isEmpty() ? "?" : siteOf(frames);
            if (type.equals("jdk.JavaMonitorEnter") && e.getClass("monitorClass") != null) {
                site = e.getClass("monitorClass").getName() + " at " + site;
            }
            bySite.merge(site, d, Double::sum);
        }
        System.out.printf(Locale.ROOT, "%n== %s (%s, above the recording's threshold): %d events, %.1f ms summed%n",
                what, type, es.size(), ms);
        print("ms " + what + " by thread group", byGroup, Double.NaN, "ms");
        print("ms " + what + " by site (first org.camdoop frame, else first non-JDK frame)", bySite, Double.NaN, "ms");
    }

    private void print(String title, Map<String, Double> counts, double of, String unit) {
        if (counts.isEmpty()) {
            return;
        }
        System.out.printf(Locale.ROOT, "-- %s%n", title);
        Map<String, Double> sorted = new LinkedHashMap<>();
        counts.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue(), a.getValue())).limit(top)
                .forEach(en -> sorted.put(en.getKey(), en.getValue()));
        for (Map.Entry<String, Double> en : sorted.entrySet()) {
            if (unit.equals("%")) {
                System.out.printf(Locale.ROOT, "  %6.1f%%  %9.0f  %s%n", 100 * en.getValue() / of, en.getValue(),
                        en.getKey());
            } else if (unit.equals("ms")) {
                System.out.printf(Locale.ROOT, "  %10.1f ms  %s%n", en.getValue(), en.getKey());
            } else {
                System.out.printf(Locale.ROOT, "  %6.0f  %s%n", en.getValue(), en.getKey());
            }
        }
    }

    /** Whether the event's thread (the sampled one for CPU samples) is one of --threads. */
    private boolean ofThreads(RecordedEvent e) {
        RecordedThread t = e.hasField("sampledThread") ? e.getThread("sampledThread") : e.getThread();
        String n = t == null ? null : t.getJavaName();
        return n != null && n.startsWith(threads);
    }

    private static List<RecordedEvent> of(List<RecordedEvent> events, String type) {
        Predicate<RecordedEvent> p = e -> e.getEventType().getName().equals(type);
        return events.stream().filter(p).toList();
    }

    private static List<RecordedFrame> frames(RecordedStackTrace st) {
        return st == null ? List.of() : st.getFrames();
    }

    private static String method(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    private static String stack(List<RecordedFrame> frames, int depth) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < Math.min(depth, frames.size()); i++) {
            parts.add(shortName(method(frames.get(i))));
        }
        return String.join(" <- ", parts);
    }

    private static String shortName(String m) {
        int dot = m.lastIndexOf('.', m.lastIndexOf('.') - 1);
        return dot < 0 ? m : m.substring(dot + 1);
    }

    private static String siteOf(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) {
            if (method(f).startsWith("org.camdoop.")) {
                return method(f) + ":" + f.getLineNumber();
            }
        }
        for (RecordedFrame f : frames) {
            String m = method(f);
            if (!m.startsWith("java.") && !m.startsWith("jdk.") && !m.startsWith("sun.")) {
                return m;
            }
        }
        return method(frames.get(0));
    }

    private static String group(RecordedThread t) {
        if (t == null) {
            return "?";
        }
        String n = t.getJavaName() != null ? t.getJavaName() : t.getOSName();
        return n == null ? "?" : n.replaceAll("[-#_ ]*\\d+$", "").replaceAll("-\\d+-", "-N-");
    }
}
