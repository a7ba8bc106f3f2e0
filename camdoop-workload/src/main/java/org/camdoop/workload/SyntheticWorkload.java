package org.camdoop.workload;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The paper's synthetic workload (section 5.2), written as N real Hadoop map outputs, plus what its reduce must
 * produce in aggregate. The job it models maps every input string to (key, 1) and sums counts in both its combiner and
 * its reducer (Text keys, IntWritable values). Server {@code i}'s output goes to {@code dir/server-iii/file.out} and
 * {@code file.out.index}, partitioned by HashPartitioner over R and sorted within each partition in Text order.
 *
 * <h2>How S is realised ({@link KeyModel.Uniform})</h2>
 * Sizes are bytes of records in IFile record layout ({@link KeyStrings#recordBytes(int)}); the value is a fixed 4-byte
 * int, so a key's record has the same size before and after combining, and S = output bytes / intermediate bytes is a
 * ratio of key bytes. Every server's map output holds distinct keys (what a map-side combiner leaves; the value is 1),
 * made of a set of <em>shared</em> keys present on every server and keys <em>unique</em> to that server; no key is
 * both. With shared bytes C and unique bytes U_i on server i, the intermediate data is N*C + sum(U_i) and the output
 * C + sum(U_i). Asking every server for M bytes (C + U_i = M) and solving for S gives
 * <pre>  C = N * M * (1 - S) / (N - 1)</pre>
 * so shared keys (serials 0, 1, ...) are taken until their bytes reach C, then each server takes fresh keys until it
 * reaches M. S = 1 gives C = 0 (every key unique across servers); S = 1/N (written 0, as in the paper) gives C = M
 * (every server has the same key set). Rounding to whole records makes the achieved S differ from the target by about
 * one record's bytes over N*M; {@link #achievedOutputRatio()} reports the exact value.
 *
 * <h2>Zipf keys ({@link KeyModel.Zipf})</h2>
 * Each server draws keys from a vocabulary shared by all servers (rank r is key serial r-1) until its (key, 1)
 * emissions reach M bytes; the map-side combiner's effect is applied (repeated keys become one record with their
 * count), so the map output is smaller than M and S is whatever the skew produces.
 *
 * <p>Everything is a function of the {@link WorkloadSpec}: the same spec writes byte-identical files.
 */
public final class SyntheticWorkload {
    private final WorkloadManifest manifest;
    private final long distinctKeys;
    private final long outputBytes;

    private SyntheticWorkload(WorkloadManifest manifest, long distinctKeys, long outputBytes) {
        this.manifest = manifest;
        this.distinctKeys = distinctKeys;
        this.outputBytes = outputBytes;
    }

    /** Writes the workload of {@code spec} under {@code dir} (created if missing; existing map outputs are replaced). */
    public static SyntheticWorkload generate(WorkloadSpec spec, Path dir) throws IOException {
        MapOutputWriter writer = new MapOutputWriter(spec.mapOutputJob());
        ServerRecords records = new ServerRecords(spec.reducers());
        KeyStrings keys = new KeyStrings(spec.seed());
        if (spec.keys() instanceof KeyModel.Uniform uniform) {
            return generateUniform(spec, uniform, keys, records, writer, dir);
        }
        return generateZipf(spec, (KeyModel.Zipf) spec.keys(), keys, records, writer, dir);
    }

    /** The directory of server {@code server}'s map output under {@code dir}. */
    public static Path serverDir(Path dir, int server) {
        return dir.resolve(String.format(Locale.ROOT, "server-%03d", server));
    }

    private static SyntheticWorkload generateUniform(WorkloadSpec spec, KeyModel.Uniform model, KeyStrings keys,
            ServerRecords records, MapOutputWriter writer, Path dir) throws IOException {
        int n = spec.servers();
        long m = spec.bytesPerServer();
        double target = model.target(n);
        long sharedTarget = n == 1 ? m : Math.min(m, Math.round(n * (double) m * (1 - target) / (n - 1)));
        long nextSerial = 0;
        long sharedBytes = 0;
        while (sharedBytes < sharedTarget) {
            sharedBytes += KeyStrings.recordBytes(keys.length(checkedSerial(nextSerial)));
            nextSerial++;
        }
        long sharedKeys = nextSerial;
        long uniqueBytes = 0;
        List<ServerMapOutput> outputs = new ArrayList<>(n);
        for (int server = 0; server < n; server++) {
            records.clear();
            for (long serial = 0; serial < sharedKeys; serial++) {
                records.add(keys, serial, 1);
            }
            long bytes = sharedBytes;
            while (bytes < m) {
                int length = records.add(keys, checkedSerial(nextSerial++), 1);
                bytes += KeyStrings.recordBytes(length);
                uniqueBytes += KeyStrings.recordBytes(length);
            }
            records.sort();
            outputs.add(writer.write(server, records, serverDir(dir, server)));
        }
        return new SyntheticWorkload(new WorkloadManifest(spec, outputs), nextSerial, sharedBytes + uniqueBytes);
    }

    private static SyntheticWorkload generateZipf(WorkloadSpec spec, KeyModel.Zipf model, KeyStrings keys,
            ServerRecords records, MapOutputWriter writer, Path dir) throws IOException {
        ZipfKeys zipf = new ZipfKeys(model);
        int vocabulary = model.vocabulary();
        int[] counts = new int[vocabulary];
        int[] touched = new int[vocabulary];
        BitSet anywhere = new BitSet(vocabulary);
        List<ServerMapOutput> outputs = new ArrayList<>(spec.servers());
        for (int server = 0; server < spec.servers(); server++) {
            // One independent stream per server, derived from the seed, so servers do not draw the same sequence.
            SplittableRandom random = new SplittableRandom(KeyStrings.mix(spec.seed() * 31 + server));
            int touchedCount = 0;
            long emitted = 0;
            while (emitted < spec.bytesPerServer()) {
                int serial = zipf.nextRank(random) - 1;
                if (counts[serial]++ == 0) {
                    touched[touchedCount++] = serial;
                }
                emitted += KeyStrings.recordBytes(keys.length(serial));
            }
            records.clear();
            for (int i = 0; i < touchedCount; i++) {
                int serial = touched[i];
                records.add(keys, serial, counts[serial]);
                counts[serial] = 0;
                anywhere.set(serial);
            }
            records.sort();
            outputs.add(writer.write(server, records, serverDir(dir, server)));
        }
        long outputBytes = 0;
        for (int serial = anywhere.nextSetBit(0); serial >= 0; serial = anywhere.nextSetBit(serial + 1)) {
            outputBytes += KeyStrings.recordBytes(keys.length(serial));
        }
        return new SyntheticWorkload(new WorkloadManifest(spec, outputs), anywhere.cardinality(), outputBytes);
    }

    private static long checkedSerial(long serial) {
        if (serial >= KeyStrings.CAPACITY) {
            throw new IllegalArgumentException("the workload needs more than " + KeyStrings.CAPACITY
                    + " distinct keys; make N * M smaller (about 300 MB of distinct keys at most)");
        }
        return serial;
    }

    public WorkloadManifest manifest() {
        return manifest;
    }

    public WorkloadSpec spec() {
        return manifest.spec();
    }

    /** Distinct keys across all servers: the records the reducers output in total. */
    public long distinctKeys() {
        return distinctKeys;
    }

    /** Bytes of the fully combined output, in IFile record layout (the same unit as the intermediate bytes). */
    public long outputBytes() {
        return outputBytes;
    }

    /** S as generated: output bytes / intermediate bytes (1 for an empty workload). */
    public double achievedOutputRatio() {
        long intermediate = manifest.intermediateBytes();
        return intermediate == 0 ? 1.0 : (double) outputBytes / intermediate;
    }

    /** A one-paragraph summary for logs and benchmark headers. */
    public String describe() {
        WorkloadSpec spec = spec();
        String ratio;
        if (spec.keys() instanceof KeyModel.Uniform uniform) {
            ratio = String.format(Locale.ROOT, "keys uniform, S requested %s (target %.4f), achieved %.4f",
                    uniform.outputRatio() == 0 ? "0 (=1/N)" : String.format(Locale.ROOT, "%.4f", uniform.outputRatio()),
                    uniform.target(spec.servers()), achievedOutputRatio());
        } else {
            KeyModel.Zipf zipf = (KeyModel.Zipf) spec.keys();
            ratio = String.format(Locale.ROOT, "keys zipf(V=%d, s=%.2f), S achieved %.4f (an outcome of the skew)",
                    zipf.vocabulary(), zipf.exponent(), achievedOutputRatio());
        }
        return String.format(Locale.ROOT,
                "synthetic workload: N=%d servers, %s, M=%d bytes/server, R=%d, codec %s, seed %d; "
                        + "records %d, distinct keys %d, intermediate bytes %d, output bytes %d",
                spec.servers(), ratio, spec.bytesPerServer(), spec.reducers(),
                spec.codec().map(Class::getSimpleName).orElse("none"), spec.seed(), manifest.records(), distinctKeys,
                manifest.intermediateBytes(), outputBytes);
    }
}
