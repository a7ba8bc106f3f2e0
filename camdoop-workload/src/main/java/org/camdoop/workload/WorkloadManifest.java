package org.camdoop.workload;

import java.util.List;

/**
 * Everything a generated workload wrote: the spec it came from and every server's map output.
 *
 * @param spec the parameters it was generated from
 * @param servers one entry per server, in server order
 */
public record WorkloadManifest(WorkloadSpec spec, List<ServerMapOutput> servers) {
    public WorkloadManifest {
        servers = List.copyOf(servers);
    }

    /** Records across all map outputs. */
    public long records() {
        return servers.stream().mapToLong(ServerMapOutput::records).sum();
    }

    /** The exact intermediate bytes: all map outputs' records in IFile record layout (no EOF markers or checksums). */
    public long intermediateBytes() {
        return servers.stream().mapToLong(ServerMapOutput::recordBytes).sum();
    }

    /** Intermediate bytes destined for {@code partition}, summed over servers. */
    public long intermediateBytes(int partition) {
        return servers.stream().mapToLong(s -> s.partitions().get(partition).recordBytes()).sum();
    }

    public int partitions() {
        return spec.reducers();
    }
}
