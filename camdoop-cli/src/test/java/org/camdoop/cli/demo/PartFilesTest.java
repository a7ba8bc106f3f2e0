package org.camdoop.cli.demo;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Output directories are compared by their part files only, byte for byte. */
class PartFilesTest {

    @Test
    void samePartFilesAreIdenticalWhateverElseIsThere(@TempDir Path dir) throws IOException {
        Path a = write(dir.resolve("a"), "part-r-00000", "a\t1\n");
        Path b = write(dir.resolve("b"), "part-r-00000", "a\t1\n");
        Files.writeString(b.resolve("_SUCCESS"), "");
        assertTrue(PartFiles.identical(a, b));
    }

    @Test
    void oneDifferentByteOrAMissingPartIsNotIdentical(@TempDir Path dir) throws IOException {
        Path a = write(dir.resolve("a"), "part-r-00000", "a\t1\n");
        assertFalse(PartFiles.identical(a, write(dir.resolve("b"), "part-r-00000", "a\t2\n")));
        assertFalse(PartFiles.identical(a, write(dir.resolve("c"), "part-r-00001", "a\t1\n")));
        assertFalse(PartFiles.identical(Files.createDirectories(dir.resolve("d")), dir.resolve("d")));
    }

    private static Path write(Path dir, String name, String text) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(name), text);
        return dir;
    }
}
