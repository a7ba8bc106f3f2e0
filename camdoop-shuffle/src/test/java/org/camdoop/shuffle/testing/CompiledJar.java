package org.camdoop.shuffle.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.MapReduceBase;

/** A jar of classes compiled while the tests run, so they exist nowhere on the test class path. */
public final class CompiledJar {

    private CompiledJar() {
    }

    /**
     * Compiles {@code sources} (class name to source) against Hadoop common and mapreduce-client-core, and jars them
     * into {@code work/name} with {@code paddingBytes} of incompressible resource {@code padding.bin} (to make the jar
     * as large as a test needs).
     */
    public static Path build(Path work, String name, Map<String, String> sources, int paddingBytes)
            throws IOException {
        Path src = Files.createDirectories(work.resolve(name + "-src"));
        Path classes = Files.createDirectories(work.resolve(name + "-classes"));
        List<String> args = new ArrayList<>(List.of("-classpath", classPath(), "-d", classes.toString(),
                "--release", "17", "-nowarn"));
        for (Map.Entry<String, String> s : sources.entrySet()) {
            Path file = src.resolve(s.getKey().replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, s.getValue());
            args.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null || javac.run(null, null, null, args.toArray(String[]::new)) != 0) {
            throw new IllegalStateException("compiling " + sources.keySet() + " failed (is this a JDK?)");
        }
        Path jar = work.resolve(name);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(classes)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out)) {
            for (Path f : files) {
                JarEntry entry = new JarEntry(classes.relativize(f).toString().replace('\\', '/'));
                entry.setTime(0);
                jarOut.putNextEntry(entry);
                jarOut.write(Files.readAllBytes(f));
                jarOut.closeEntry();
            }
            byte[] padding = new byte[paddingBytes];
            new java.util.Random(paddingBytes).nextBytes(padding);
            JarEntry entry = new JarEntry("padding.bin");
            entry.setTime(0);
            jarOut.putNextEntry(entry);
            jarOut.write(padding);
            jarOut.closeEntry();
        }
        return jar;
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
}
