package org.camdoop.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package layering of camdoop-torus-net and camdoop-shuffle (docs/architecture.md), read from the main sources:
 * every import and fully qualified name of one of our classes is an edge between packages.
 * <ul>
 *   <li>No package cycle, in either module.</li>
 *   <li>The task side ({@link #TASK_SIDE}: the Hadoop bridges, the local-protocol client, the protocol itself) never
 *       names a daemon-side class ({@link #DAEMON_SIDE}: the service and its vertices, the daemon process, the
 *       local-protocol endpoint, the job registry, the aggregation engine, the Netty transport).</li>
 *   <li>The daemon side never names a task-side class other than the protocol.</li>
 *   <li>The protocol is a leaf among our packages: it names nothing of ours but torus coordinates and trees.</li>
 * </ul>
 * Local mode is the one place a task runs daemons in its own JVM: {@code org.camdoop.shuffle.localmode} may name both
 * sides, and the bridges reach the daemon only through it.
 */
class PackageLayersTest {

    private static final List<Path> SOURCES = List.of(Path.of("src", "main", "java"),
            Path.of("..", "camdoop-torus-net", "src", "main", "java"));

    static final List<String> TASK_SIDE = List.of("org.camdoop.shuffle.hadoop", "org.camdoop.shuffle.client",
            "org.camdoop.shuffle.protocol");
    static final List<String> DAEMON_SIDE = List.of("org.camdoop.shuffle.service", "org.camdoop.shuffle.daemon",
            "org.camdoop.shuffle.endpoint", "org.camdoop.shuffle.jobs", "org.camdoop.shuffle.aggregation",
            "org.camdoop.torus.transport");
    private static final List<String> PROTOCOL_MAY_USE = List.of("org.camdoop.shuffle.protocol",
            "org.camdoop.torus.topology", "org.camdoop.torus.trees", "org.camdoop.torus.routing");

    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    /** A qualified name of one of our types: lower-case segments, then a capitalised one. */
    private static final Pattern OUR_TYPE = Pattern.compile("\\b(org\\.camdoop(?:\\.[a-z][a-z0-9_]*)+)\\.[A-Z]");
    private static final Pattern COMMENTS = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

    @Test
    void noPackageCycle() throws IOException {
        Map<String, Set<String>> graph = packageGraph();
        assertTrue(graph.size() > 20, "the scan found only " + graph.keySet());
        assertEquals(List.of(), cycles(graph), "package cycles");
    }

    @Test
    void theTaskSideNamesNoDaemonClass() throws IOException {
        assertEquals(List.of(), crossings(packageGraph(), TASK_SIDE, DAEMON_SIDE));
    }

    @Test
    void theDaemonSideNamesNoTaskClassButTheProtocol() throws IOException {
        List<String> taskOnly = List.of("org.camdoop.shuffle.hadoop", "org.camdoop.shuffle.client",
                "org.camdoop.shuffle.localmode");
        assertEquals(List.of(), crossings(packageGraph(), DAEMON_SIDE, taskOnly));
    }

    @Test
    void theProtocolIsALeaf() throws IOException {
        List<String> bad = new ArrayList<>();
        for (String to : packageGraph().getOrDefault("org.camdoop.shuffle.protocol", Set.of())) {
            if (PROTOCOL_MAY_USE.stream().noneMatch(to::equals)) {
                bad.add("org.camdoop.shuffle.protocol -> " + to);
            }
        }
        assertEquals(List.of(), bad);
    }

    /** The checks themselves can fail: a cycle and a crossing planted in a small graph are found. */
    @Test
    void theChecksFindWhatTheyLookFor() {
        Map<String, Set<String>> g = new TreeMap<>();
        g.put("a", Set.of("b"));
        g.put("b", Set.of("c"));
        g.put("c", Set.of("a"));
        g.put("d", Set.of("a"));
        assertEquals(List.of(List.of("a", "b", "c")), cycles(g));
        g.put("org.camdoop.shuffle.hadoop", Set.of("org.camdoop.shuffle.service.vertex"));
        assertEquals(List.of("org.camdoop.shuffle.hadoop -> org.camdoop.shuffle.service.vertex"),
                crossings(g, TASK_SIDE, DAEMON_SIDE));
    }

    private static boolean within(String pkg, List<String> roots) {
        return roots.stream().anyMatch(r -> pkg.equals(r) || pkg.startsWith(r + "."));
    }

    private static List<String> crossings(Map<String, Set<String>> graph, List<String> from, List<String> to) {
        List<String> out = new ArrayList<>();
        graph.forEach((a, targets) -> {
            if (within(a, from)) {
                targets.stream().filter(b -> within(b, to)).forEach(b -> out.add(a + " -> " + b));
            }
        });
        return out;
    }

    /** Package -> packages of ours it names (itself excluded). */
    static Map<String, Set<String>> packageGraph() throws IOException {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (Path root : SOURCES) {
            assertTrue(Files.isDirectory(root), root.toAbsolutePath() + " is missing");
            List<Path> files;
            try (Stream<Path> walk = Files.walk(root)) {
                files = walk.filter(p -> p.toString().endsWith(".java")).toList();
            }
            for (Path file : files) {
                String text = Files.readString(file);
                Matcher pkg = PACKAGE.matcher(text);
                assertTrue(pkg.find(), file + " has no package");
                String from = pkg.group(1);
                Set<String> targets = graph.computeIfAbsent(from, k -> new TreeSet<>());
                Matcher m = OUR_TYPE.matcher(COMMENTS.matcher(text).replaceAll(" "));
                while (m.find()) {
                    if (!m.group(1).equals(from)) {
                        targets.add(m.group(1));
                    }
                }
            }
        }
        return graph;
    }

    /** The strongly connected components with more than one package (Tarjan), each sorted. */
    static List<List<String>> cycles(Map<String, Set<String>> graph) {
        return new Object() {
            final Map<String, Integer> index = new TreeMap<>();
            final Map<String, Integer> low = new TreeMap<>();
            final List<String> stack = new ArrayList<>();
            final Set<String> onStack = new TreeSet<>();
            final List<List<String>> found = new ArrayList<>();

            List<List<String>> run() {
                for (String v : graph.keySet()) {
                    if (!index.containsKey(v)) {
                        visit(v);
                    }
                }
                return found;
            }

            void visit(String v) {
                index.put(v, index.size());
                low.put(v, index.get(v));
                stack.add(v);
                onStack.add(v);
                for (String w : graph.getOrDefault(v, Set.of())) {
                    if (!index.containsKey(w)) {
                        visit(w);
                        low.put(v, Math.min(low.get(v), low.get(w)));
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(low.get(v), index.get(w)));
                    }
                }
                if (low.get(v).equals(index.get(v))) {
                    List<String> component = new ArrayList<>();
                    String w;
                    do {
                        w = stack.remove(stack.size() - 1);
                        onStack.remove(w);
                        component.add(w);
                    } while (!w.equals(v));
                    if (component.size() > 1) {
                        component.sort(null);
                        found.add(component);
                    }
                }
            }
        }.run();
    }
}
