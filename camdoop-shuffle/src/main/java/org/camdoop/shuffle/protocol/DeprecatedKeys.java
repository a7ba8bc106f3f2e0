package org.camdoop.shuffle.protocol;

import java.util.Optional;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;

/**
 * Hadoop's deprecated configuration key names, which a {@link JobSpec} may not carry. A JobConf maps a deprecated
 * name onto its replacement (say {@code mapred.output.key.comparator.class} onto
 * {@code mapreduce.job.output.key.comparator.class}) when the spec is rebuilt, so a deprecated name would set a class
 * the daemon loads under a name that checks reading the spec's own keys do not see. Stateless.
 */
final class DeprecatedKeys {
    static {
        // JobConf's initializer registers Hadoop's MapReduce deprecations (ConfigUtil.loadResources()). Without it,
        // Configuration.isDeprecated would know only Hadoop Common's until other code happened to load JobConf.
        new JobConf(false);
    }

    private DeprecatedKeys() {}

    /** The names Hadoop reads {@code key} as, comma-separated, if Hadoop deprecates it; empty if it does not. */
    static Optional<String> replacement(String key) {
        if (!Configuration.isDeprecated(key)) {
            return Optional.empty();
        }
        // Hadoop has no public lookup of a replacement; setting a deprecated key sets its replacements too.
        Configuration probe = new Configuration(false);
        probe.set(key, "");
        TreeSet<String> names = new TreeSet<>();
        probe.forEach(e -> names.add(e.getKey()));
        names.remove(key);
        return Optional.of(names.isEmpty() ? "no other key" : String.join(", ", names));
    }
}
