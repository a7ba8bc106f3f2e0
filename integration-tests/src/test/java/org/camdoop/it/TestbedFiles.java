package org.camdoop.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where a job on the testbed stands, read from the testbed's files (nothing else tells a client): which hosts hold
 * its map outputs, which runs its ApplicationMaster, which roots its shuffle. Hosts are named by their coordinates,
 * {@code x,y,z}.
 */
final class TestbedFiles {

    private final Path work;

    /** The files of the testbed in {@code work} ({@code CAMDOOP_TESTBED_DIR}). */
    TestbedFiles(Path work) {
        this.work = work;
    }

    /** The hosts with a finished map output of {@code app} in their NodeManager's local dir, in order. */
    List<String> mapOutputHosts(String app) throws IOException {
        List<String> out = new ArrayList<>();
        for (Path node : nodes()) {
            Path outputs = node.resolve("nm-local/usercache").resolve(System.getProperty("user.name"))
                    .resolve("appcache").resolve(app).resolve("output");
            if (Files.isDirectory(outputs)) {
                try (Stream<Path> attempts = Files.list(outputs)) {
                    if (attempts.anyMatch(a -> Files.exists(a.resolve("file.out.index")))) {
                        out.add(coord(node));
                    }
                }
            }
        }
        return out;
    }

    /** The host whose NodeManager ran the first container of {@code app}, its ApplicationMaster, if it started. */
    Optional<String> applicationMasterHost(String app) throws IOException {
        for (Path node : nodes()) {
            Path logs = node.resolve("nm-logs").resolve(app);
            if (Files.isDirectory(logs)) {
                try (Stream<Path> containers = Files.list(logs)) {
                    if (containers.anyMatch(c -> c.getFileName().toString().endsWith("_01_000001"))) {
                        return Optional.of(coord(node));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The root of the first attempt of partition {@code partition} of {@code jobId}'s shuffle, once its daemon logged
     * {@code starting shuffle} (the daemons' and NodeManagers' logs are in the testbed's {@code logs}).
     */
    Optional<String> shuffleRoot(String jobId, int partition) throws IOException {
        Pattern line = Pattern.compile("starting shuffle " + Pattern.quote(jobId) + " partition " + partition
                + " attempt 0 -> root (\\d+,\\d+,\\d+)");
        try (Stream<Path> logs = Files.list(work.resolve("logs"))) {
            for (Path log : logs.filter(p -> p.toString().endsWith(".log")).sorted().toList()) {
                Matcher m = line.matcher(Files.readString(log, StandardCharsets.ISO_8859_1));
                if (m.find()) {
                    return Optional.of(m.group(1));
                }
            }
        }
        return Optional.empty();
    }

    private List<Path> nodes() throws IOException {
        try (Stream<Path> nodes = Files.list(work.resolve("hosts"))) {
            return nodes.filter(p -> p.getFileName().toString().startsWith("node-")).sorted().toList();
        }
    }

    /** {@code node-x-y-z} to {@code x,y,z}. */
    private static String coord(Path node) {
        return node.getFileName().toString().substring("node-".length()).replace('-', ',');
    }
}
