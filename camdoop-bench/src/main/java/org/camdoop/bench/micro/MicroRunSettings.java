package org.camdoop.bench.micro;

import java.nio.file.Path;
import java.util.Optional;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The JMH settings of {@code camdoop bench micro}: one fork per benchmark (a fresh JVM, so one benchmark's JIT profile
 * does not bias the next; the fork inherits this JVM's class path and options), and iteration counts sized for the
 * 16 benchmark configurations: about 1.7 minutes with {@code --quick}, about 6 minutes by default.
 */
record MicroRunSettings(boolean quick, String include, Optional<Path> csv) {

    /** Every benchmark of this package. */
    static final String ALL = MicroRunSettings.class.getPackageName().replace(".", "\\.") + "\\.";

    Options toOptions() {
        ChainedOptionsBuilder b = new OptionsBuilder()
                .include(include)
                .forks(1)
                // Hadoop's one-line warning that it has no native library would land inside JMH's progress lines.
                .jvmArgsAppend("-Dorg.slf4j.simpleLogger.log.org.apache.hadoop.util.NativeCodeLoader=error")
                .shouldFailOnError(true);
        if (quick) {
            b.warmupIterations(2).warmupTime(TimeValue.seconds(1))
                    .measurementIterations(2).measurementTime(TimeValue.seconds(1));
        } else {
            b.warmupIterations(4).warmupTime(TimeValue.seconds(2))
                    .measurementIterations(5).measurementTime(TimeValue.seconds(2));
        }
        csv.ifPresent(path -> b.result(path.toString()).resultFormat(ResultFormatType.CSV));
        return b.build();
    }

    /** One line naming the run for the report. */
    String describe() {
        return (quick ? "--quick: 1 fork, 2 x 1 s warm-up, 2 x 1 s measurement"
                : "default: 1 fork, 4 x 2 s warm-up, 5 x 2 s measurement")
                + (include.equals(ALL) ? "" : ", --include " + include);
    }
}
