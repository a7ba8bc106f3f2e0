package org.camdoop.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The distribution tarball camdoop-dist built, unpacked as an operator would, and commands run against it. */
final class Distribution {

    private Distribution() {
    }

    /** What a command printed (stdout and stderr together) and its exit status. */
    record Result(int exit, String out) {
    }

    /** Unpacks the tarball into {@code dir}; returns its top directory. */
    static Path unpack(Path dir) throws Exception {
        Path tarball = Path.of(System.getProperty("camdoop.dist.tarball"));
        assertTrue(Files.isRegularFile(tarball), tarball + " (built by camdoop-dist)");
        Result r = run(dir, Map.of(), "tar", "xzf", tarball.toString(), "-C", dir.toString());
        assertEquals(0, r.exit(), r.out());
        try (Stream<Path> homes = Files.list(dir).filter(p -> p.getFileName().toString().startsWith("camdoop-"))) {
            List<Path> found = homes.toList();
            assertEquals(1, found.size(), found.toString());
            return found.get(0);
        }
    }

    /**
     * Runs a {@code check} {@code command} until it exits with {@code exit} and its output passes {@code ready}, for at
     * most 60 s. The links' state lives in the daemons' status files, which the scripts read: polling the script is
     * the only interface an operator has too.
     */
    static Result awaitCheck(Path home, Map<String, String> env, int exit, java.util.function.Predicate<String> ready,
            String... command) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Result r;
        do {
            r = run(home, env, command);
            if (r.exit() == exit && ready.test(r.out())) {
                return r;
            }
            Thread.sleep(250);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("check never reached exit " + exit + " with the expected output; last:\n" + r.out());
    }

    /**
     * Runs {@code command} in {@code cwd} with {@code env} added, at most 120 s; a relative program path is taken
     * from {@code cwd}.
     */
    static Result run(Path cwd, Map<String, String> env, String... command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(command));
        if (!cmd.get(0).startsWith("/") && cmd.get(0).contains("/")) {
            cmd.set(0, cwd.resolve(cmd.get(0)).toString());
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        return new Result(p.exitValue(), out);
    }
}
