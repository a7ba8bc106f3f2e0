package org.camdoop.workload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Timing probe, not a test (run by hand: {@code java ... GenerationThroughput [servers] [bytesPerServer]}): generates
 * the S-ratio workload at S = 0, 0.5 and 1 and a Zipf workload, and prints MB/s of intermediate data written. Figures
 * for reports come from here, never from a timed assertion.
 */
public final class GenerationThroughput {
    private GenerationThroughput() {}

    public static void main(String[] args) throws Exception {
        int servers = args.length > 0 ? Integer.parseInt(args[0]) : 27;
        long bytes = args.length > 1 ? Long.parseLong(args[1]) : 3L << 20;
        Path dir = Files.createTempDirectory("camdoop-workload");
        WorkloadSpec[] specs = {
            WorkloadSpec.sRatio(servers, 0, bytes, 4, 1),
            WorkloadSpec.sRatio(servers, 0.5, bytes, 4, 1),
            WorkloadSpec.sRatio(servers, 1, bytes, 4, 1),
            WorkloadSpec.zipf(servers, new KeyModel.Zipf(1_000_000), bytes, 4, 1),
        };
        for (int round = 0; round < 2; round++) {
            for (WorkloadSpec spec : specs) {
                long start = System.nanoTime();
                SyntheticWorkload w = SyntheticWorkload.generate(spec, dir);
                double seconds = (System.nanoTime() - start) / 1e9;
                long startRef = System.nanoTime();
                ReferenceResult reference = ReferenceResult.compute(w.manifest());
                double refSeconds = (System.nanoTime() - startRef) / 1e9;
                System.out.printf(Locale.ROOT, "%s%n  generate %.2f s = %.1f MB/s; reference %.2f s, digest %s%n",
                        w.describe(), seconds, w.manifest().intermediateBytes() / seconds / 1e6, refSeconds,
                        reference.digest().substring(0, 12));
            }
        }
    }
}
