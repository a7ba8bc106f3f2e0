import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Text summary of an async-profiler CPU profile in collapsed form ({@code threads,collapsed}): the share of each thread
 * group, the top self frames and the top inclusive Camdoop, Netty and Hadoop frames. Unlike JFR's sampler,
 * async-profiler sees the JIT compiler, GC and kernel time that a process's CPU seconds include, and attributes inlined
 * frames more exactly (see docs/performance.md, section 9). Run as a single-file source program:
 *
 * <pre>
 *   CAMDOOP_JAVA_OPTS="-agentpath:/path/to/libasyncProfiler.so=start,event=cpu,interval=1ms,threads,file=p.collapsed,collapsed" \
 *       scripts/camdoop bench shuffle ...
 *   java scripts/CollapsedSummary.java p.collapsed [--top N] [--thread PREFIX]
 * </pre>
 *
 * Compiler threads ({@code C1/C2 CompilerThread}) and {@code main} (workload generation, torus start-up) are left out
 * of the totals: the first are the JIT, whose share a warmed-up daemon does not pay; the second is not the shuffle.
 * {@code libasyncProfiler.so} is in the {@code tools.profiler:async-profiler} jar on Maven Central.
 */
public final class CollapsedSummary {
    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: java scripts/CollapsedSummary.java FILE.collapsed [--top N] [--thread PREFIX]");
            System.exit(2);
        }
        int top = 30;
        String only = null;
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--top")) {
                top = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--thread")) {
                only = args[++i];
            }
        }
        Map<String, Long> threads = new HashMap<>();
        Map<String, Long> self = new HashMap<>();
        Map<String, Long> inclusive = new HashMap<>();
        long total = 0;
        List<String> lines = Files.readAllLines(Path.of(args[0]));
        for (String line : lines) {
            int space = line.lastIndexOf(' ');
            long count = Long.parseLong(line.substring(space + 1).trim());
            String[] frames = line.substring(0, space).split(";");
            String thread = frames[0].replaceAll(" tid=\\d+", "").replaceAll("-\\d+]$", "]");
            if (thread.contains("CompilerThre") || thread.startsWith("[main")
                    || (only != null && !frames[0].startsWith("[" + only))) {
                continue;
            }
            total += count;
            threads.merge(thread, count, Long::sum);
            self.merge(frames[frames.length - 1], count, Long::sum);
            Set<String> seen = new HashSet<>();
            for (int f = 1; f < frames.length; f++) {
                if (seen.add(frames[f])) {
                    inclusive.merge(frames[f], count, Long::sum);
                }
            }
        }
        System.out.printf("samples: %d (compiler threads and main left out)%n-- per thread group%n", total);
        print(threads, total, 10, s -> true);
        System.out.println("-- top self frames");
        print(self, total, top, s -> true);
        System.out.println("-- top inclusive frames (camdoop, netty, hadoop)");
        print(inclusive, total, top, s -> s.contains("camdoop") || s.contains("netty") || s.contains("hadoop"));
    }

    private static void print(Map<String, Long> counts, long total, int top,
            java.util.function.Predicate<String> keep) {
        counts.entrySet().stream().filter(e -> keep.test(e.getKey()))
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(top)
                .forEach(e -> System.out.printf("  %5.1f%%  %s%n", 100.0 * e.getValue() / total,
                        e.getKey().length() > 140 ? e.getKey().substring(0, 140) : e.getKey()));
    }
}
