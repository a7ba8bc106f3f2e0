package org.camdoop.minicluster;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * The configuration directory the examples program's JVM puts first on its class path. The running cluster's
 * configuration is written as core-site.xml, mapred-site.xml and yarn-site.xml alike: with core-site.xml alone,
 * mapred-default.xml's {@code mapreduce.framework.name=local} wins and the job silently runs in the LocalJobRunner.
 */
final class ClientConfDir {

    static final List<String> SITE_FILES = List.of("core-site.xml", "mapred-site.xml", "yarn-site.xml");

    private ClientConfDir() {
    }

    /** Writes {@code conf} to {@code dir}'s site files and returns {@code dir}. */
    static Path write(Configuration conf, Path dir) throws IOException {
        Files.createDirectories(dir);
        for (String name : SITE_FILES) {
            try (OutputStream out = Files.newOutputStream(dir.resolve(name))) {
                conf.writeXml(out);
            }
        }
        return dir;
    }
}
