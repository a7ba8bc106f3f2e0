package org.camdoop.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.camdoop.torus.routing.UnreachableException;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.trees.DisjointTrees;
import org.camdoop.torus.trees.HostedTrees;
import org.camdoop.torus.trees.SpanningTrees;
import org.camdoop.torus.trees.TreeChoice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code camdoop topology}: the trees a reduce task rooted at one server would use, where each vertex is hosted
 * under a set of failures, and the physical route of every tree edge. Operators use it to see what a failure does;
 * our checks parse its {@code --json} output, so that format is fixed.
 */
@Command(name = "topology", mixinStandardHelpOptions = true,
        description = {"Print the spanning trees rooted at one server, their placement on live servers and their depth.",
            "JSON (--json): {\"shape\":[a,b,c], \"root\":[x,y,z], \"trees\":[{\"id\":t, \"vertices\":[{\"vertex\":[x,y,z],"
                + " \"host\":[x,y,z], \"parent\":[x,y,z]|null, \"route\":[[x,y,z],...]}, ...]}, ...],"
                + " \"depth\":{\"max\":M, \"avg\":A}}"})
public final class TopologyCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--shape", required = true, paramLabel = "AxBxC", description = "Torus shape, e.g. 3x3x3.")
    String shape;

    @Option(names = "--root", defaultValue = "0,0,0", paramLabel = "X,Y,Z",
            description = "The reducer's coordinate (default: ${DEFAULT-VALUE}).")
    String root;

    @Option(names = "--trees", defaultValue = "six", paramLabel = "six|shortest",
            description = "Six disjoint trees or one shortest-path tree (default: ${DEFAULT-VALUE}).")
    String trees;

    @Option(names = "--failed", paramLabel = "X,Y,Z", description = "A failed server; repeat for several.")
    List<String> failed = new ArrayList<>();

    @Option(names = "--cut", paramLabel = "X,Y,Z:X,Y,Z", description = "A cut link between two neighbours; repeatable.")
    List<String> cut = new ArrayList<>();

    @Option(names = "--salt", defaultValue = "0",
            description = "Low bits of the vertex identifiers (a job's hash): which neighbour takes over a failed root.")
    long salt;

    @Option(names = "--json", description = "Print one JSON object instead of the summary.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        TorusShape torus = TorusShape.parse(shape);
        Coord rootCoord = Coord.parse(root);
        if (!torus.contains(rootCoord)) {
            throw new IllegalArgumentException("root " + rootCoord + " is outside the torus " + torus);
        }
        FailureView view = FailureView.none(torus);
        for (String f : failed) {
            Coord c = Coord.parse(f);
            if (!torus.contains(c)) {
                throw new IllegalArgumentException("failed server " + c + " is outside the torus " + torus);
            }
            view = view.withFailed(c);
        }
        for (String link : cut) {
            String[] ends = link.split(":", -1);
            if (ends.length != 2) {
                throw new IllegalArgumentException("malformed link '" + link + "': expected X,Y,Z:X,Y,Z");
            }
            Coord a = Coord.parse(ends[0]);
            Coord b = Coord.parse(ends[1]);
            if (!torus.contains(a) || !torus.contains(b)) {
                throw new IllegalArgumentException("link " + link + " is outside the torus " + torus);
            }
            view = view.withCutLink(a, b);
        }
        if (view.liveCount() == 0) {
            throw new IllegalArgumentException("every server of " + torus + " has failed: nothing can host the trees");
        }
        SpanningTrees logical = TreeChoice.parse(trees).build(torus, torus.index(rootCoord));
        HostedTrees hosted = new HostedTrees(logical, view, salt);
        PrintWriter out = spec.commandLine().getOut();
        try {
            if (json) {
                out.println(new ObjectMapper().writeValueAsString(toJson(hosted)));
            } else {
                printSummary(out, hosted, view);
            }
        } catch (UnreachableException e) {
            spec.commandLine().getErr().println("camdoop topology: " + e.getMessage());
            return 1;
        }
        out.flush();
        return 0;
    }

    private static ObjectNode toJson(HostedTrees hosted) {
        ObjectMapper mapper = new ObjectMapper();
        SpanningTrees logical = hosted.trees();
        TorusShape torus = logical.shape();
        ObjectNode root = mapper.createObjectNode();
        root.putArray("shape").add(torus.dim(0)).add(torus.dim(1)).add(torus.dim(2));
        root.set("root", coord(mapper, torus.coord(logical.root())));
        ArrayNode trees = root.putArray("trees");
        for (int t = 0; t < logical.count(); t++) {
            ObjectNode tree = trees.addObject();
            tree.put("id", t);
            ArrayNode vertices = tree.putArray("vertices");
            for (int v = 0; v < torus.size(); v++) {
                ObjectNode vertex = vertices.addObject();
                vertex.set("vertex", coord(mapper, torus.coord(v)));
                vertex.set("host", coord(mapper, torus.coord(hosted.host(t, v))));
                int parent = logical.parent(t, v);
                if (parent < 0) {
                    vertex.putNull("parent");
                } else {
                    vertex.set("parent", coord(mapper, torus.coord(parent)));
                }
                ArrayNode route = vertex.putArray("route");
                for (int hop : hosted.route(t, v)) {
                    route.add(coord(mapper, torus.coord(hop)));
                }
            }
        }
        HostedTrees.Depth depth = hosted.depth();
        root.putObject("depth").put("max", depth.max()).put("avg", round(depth.avg()));
        return root;
    }

    private static ArrayNode coord(ObjectMapper mapper, Coord c) {
        return mapper.createArrayNode().add(c.x()).add(c.y()).add(c.z());
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    private static void printSummary(PrintWriter out, HostedTrees hosted, FailureView view) {
        SpanningTrees logical = hosted.trees();
        TorusShape torus = logical.shape();
        int down = torus.size() - view.liveCount();
        out.printf(Locale.ROOT, "torus %s: %d servers%s, root %s%n", torus, torus.size(),
                down == 0 && view.cutLinkCount() == 0 ? "" : " (" + down + " failed, " + view.cutLinkCount() + " links cut)",
                torus.coord(logical.root()));
        out.println(logical.describe());
        if (logical.count() > 0) {
            out.printf("%-5s %-8s %-11s %-9s %s%n", "tree", "leaves", "root child", "max hops", "avg hops");
            for (int t = 0; t < logical.count(); t++) {
                int[] children = logical.children(t, logical.root());
                String leaves = logical instanceof DisjointTrees six ? six.genericPort(t).label() : "-";
                String child = children.length == 1 ? torus.coord(children[0]).toString() : children.length + " children";
                HostedTrees.Depth d = hosted.depth(t);
                out.printf(Locale.ROOT, "%-5d %-8s %-11s %-9d %.2f%n", t, leaves, child, d.max(), d.avg());
            }
        }
        HostedTrees.Depth depth = hosted.depth();
        out.printf(Locale.ROOT, "depth over all trees: max %d, avg %.2f hops (shortest-path floor %.2f)%n", depth.max(),
                depth.avg(), HostedTrees.shortestPathAverage(torus, logical.root()));
        for (int v = 0; v < torus.size(); v++) {
            if (view.isLive(v)) {
                continue;
            }
            if (v == logical.root()) {
                out.printf("vertex %s is hosted by %s%n", torus.coord(v), torus.coord(hosted.rootHost()));
                continue;
            }
            StringBuilder hosts = new StringBuilder();
            for (int t = 0; t < logical.count(); t++) {
                hosts.append(t == 0 ? "" : ", ").append(t).append(": ").append(torus.coord(hosted.host(t, v)));
            }
            out.printf("vertex %s is hosted, tree by tree, by %s%n", torus.coord(v), hosts);
        }
    }
}
