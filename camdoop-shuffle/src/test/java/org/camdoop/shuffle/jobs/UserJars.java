package org.camdoop.shuffle.jobs;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.MapReduceBase;

/**
 * Jars of user classes compiled while the tests run, so the classes exist nowhere on the test class path: a job
 * combiner summing IntWritables (old API), a custom RawComparator sorting Text in reverse, and a combiner whose class
 * initializer throws (proof that a class was never initialized).
 */
final class UserJars {
    static final String SUM_COMBINER = "userjob.SumCombiner";
    static final String REVERSE_COMPARATOR = "userjob.ReverseText";
    static final String BOOM_COMBINER = "userjob.BoomCombiner";
    static final String EXTRA_CLASS = "userjob.Extra";

    private static final Map<String, String> SOURCES = Map.of(
            SUM_COMBINER, """
                    package userjob;
                    import java.io.IOException;
                    import java.util.Iterator;
                    import org.apache.hadoop.io.IntWritable;
                    import org.apache.hadoop.io.Text;
                    import org.apache.hadoop.mapred.*;
                    public class SumCombiner extends MapReduceBase
                            implements Reducer<Text, IntWritable, Text, IntWritable> {
                        public void reduce(Text key, Iterator<IntWritable> values,
                                OutputCollector<Text, IntWritable> out, Reporter reporter) throws IOException {
                            int sum = 0;
                            while (values.hasNext()) {
                                sum += values.next().get();
                            }
                            out.collect(key, new IntWritable(sum));
                        }
                    }
                    """,
            REVERSE_COMPARATOR, """
                    package userjob;
                    import org.apache.hadoop.io.Text;
                    public class ReverseText extends Text.Comparator {
                        public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
                            return super.compare(b2, s2, l2, b1, s1, l1);
                        }
                    }
                    """,
            BOOM_COMBINER, """
                    package userjob;
                    public class BoomCombiner extends SumCombiner {
                        static {
                            if (true) {
                                throw new IllegalStateException("user code ran");
                            }
                        }
                    }
                    """,
            EXTRA_CLASS, """
                    package userjob;
                    public class Extra {
                    }
                    """);

    private UserJars() {}

    /** Compiles the user classes under {@code work} and jars them into {@code work/user.jar}. */
    static Path build(Path work) throws IOException {
        Path src = Files.createDirectories(work.resolve("src"));
        Path classes = Files.createDirectories(work.resolve("classes"));
        List<String> args = new ArrayList<>(List.of("-classpath", classPath(), "-d", classes.toString(),
                "--release", "17", "-nowarn"));
        for (Map.Entry<String, String> s : SOURCES.entrySet()) {
            Path file = src.resolve(s.getKey().replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, s.getValue());
            args.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null || javac.run(null, null, null, args.toArray(String[]::new)) != 0) {
            throw new IllegalStateException("compiling the user classes failed (is this a JDK?)");
        }
        return jar(classes, work.resolve("user.jar"));
    }

    private static String classPath() {
        try {
            return Path.of(Text.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    + java.io.File.pathSeparator
                    + Path.of(MapReduceBase.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path jar(Path classes, Path jar) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(classes)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        try (OutputStream out = Files.newOutputStream(jar);
                JarOutputStream jarOut = new JarOutputStream(out, manifest)) {
            for (Path f : files) {
                JarEntry entry = new JarEntry(classes.relativize(f).toString().replace('\\', '/'));
                entry.setTime(0);
                jarOut.putNextEntry(entry);
                jarOut.write(Files.readAllBytes(f));
                jarOut.closeEntry();
            }
        }
        return jar;
    }
}
