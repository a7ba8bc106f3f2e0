package org.camdoop.minicluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs one hadoop-mapreduce-examples program through its own {@code ExampleDriver} in a child JVM (the driver calls
 * {@code System.exit}), with the client configuration directory first on the class path and this JVM's class path
 * (which holds the examples jar and Hadoop) after it. The child's stdout and stderr are copied to ours line by line;
 * the ids of the jobs it submits are picked from them ({@code Running job: job_...}).
 */
public final class ExamplesProcess {

    static final String DRIVER = "org.apache.hadoop.examples.ExampleDriver";

    /** YARN job ids; the LocalJobRunner's ({@code job_local...}) deliberately do not match. */
    private static final Pattern JOB_ID = Pattern.compile("\\b(job_\\d+_\\d+)\\b");

    /** What the child did. */
    public record Outcome(int exit, double seconds, List<String> jobs) {
    }

    private ExamplesProcess() {
    }

    static Outcome run(Path confDir, List<String> program, PrintStream out, PrintStream err)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The client mostly submits and polls (or runs a small job in the LocalJobRunner, as the end-to-end tests'
        // references do): a small heap, the C1 compiler alone and the serial collector keep the 2-core, several-JVM
        // run light (C2's compilations and a parallel collector's threads would not pay back in a process this short).
        command.add("-Xmx256m");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-XX:+UseSerialGC");
        // The tools log warnings only (simplelogger.properties); the job client's progress and job id are wanted here.
        command.add("-Dorg.slf4j.simpleLogger.log.org.apache.hadoop.mapreduce.Job=info");
        command.add("-cp");
        command.add(confDir + java.io.File.pathSeparator + System.getProperty("java.class.path"));
        command.add(DRIVER);
        command.addAll(program);
        long start = System.nanoTime();
        Process child = new ProcessBuilder(command).start();
        child.getOutputStream().close();
        Set<String> jobs = java.util.Collections.synchronizedSet(new LinkedHashSet<>());
        Thread outCopy = copier(child.getInputStream(), out, jobs, "stdout");
        Thread errCopy = copier(child.getErrorStream(), err, jobs, "stderr");
        int exit;
        try {
            exit = child.waitFor();
        } catch (InterruptedException e) {
            // Whoever waits gave up (a test's timeout): the program must not outlive it.
            child.destroyForcibly();
            throw e;
        }
        outCopy.join();
        errCopy.join();
        double seconds = (System.nanoTime() - start) / 1e9;
        synchronized (jobs) {
            return new Outcome(exit, seconds, List.copyOf(jobs));
        }
    }

    private static Thread copier(InputStream from, PrintStream to, Set<String> jobs, String name) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(from, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    to.println(line);
                    Matcher m = JOB_ID.matcher(line);
                    while (m.find()) {
                        jobs.add(m.group(1));
                    }
                }
            } catch (IOException e) {
                to.println("camdoop minicluster: lost the examples program's " + name + ": " + e.getMessage());
            }
        }, "examples-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
