package org.camdoop.minicluster;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.camdoop.torus.topology.TorusShape;

/**
 * What one mini-cluster run does.
 *
 * @param nodes NodeManagers, each hosting one Camdoop daemon (the first {@code nodes} coordinates of the torus)
 * @param shape the torus; coordinates beyond the NodeManagers' get forwarding-only daemons
 * @param stock run the job with Hadoop's own shuffle (no plug-in keys, no daemons)
 * @param work directory for the cluster's files, the client configuration and the topology file
 * @param program the examples program and its arguments, e.g. {@code wordcount in out}
 * @param auxServiceJar the shaded camdoop-hadoop jar the NodeManagers load the aux service from, in its own class
 *     loader; empty: from this JVM's class path
 */
public record MiniClusterOptions(int nodes, TorusShape shape, boolean stock, Path work, List<String> program,
        Optional<Path> auxServiceJar) {

    public MiniClusterOptions {
        if (nodes < 1) {
            throw new IllegalArgumentException("--nodes must be at least 1, got " + nodes);
        }
        if (!stock && nodes > shape.size()) {
            throw new IllegalArgumentException("--nodes " + nodes + " does not fit the torus " + shape + " ("
                    + shape.size() + " coordinates)");
        }
        if (program.isEmpty()) {
            throw new IllegalArgumentException("name an examples program after --, e.g. -- wordcount IN OUT");
        }
        program = List.copyOf(program);
    }
}
