package org.camdoop.cli.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Compares two MapReduce output directories by their reducers' part files. */
final class PartFiles {

    private PartFiles() {
    }

    /** Whether both directories hold the same {@code part-*} files with the same bytes. */
    static boolean identical(Path a, Path b) throws IOException {
        List<String> names = names(a);
        if (names.isEmpty() || !names.equals(names(b))) {
            return false;
        }
        for (String name : names) {
            if (Files.mismatch(a.resolve(name), b.resolve(name)) != -1) {
                return false;
            }
        }
        return true;
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("part-")).sorted().toList();
        }
    }
}
