package org.camdoop.bench.shuffle;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;

/**
 * What one shuffle benchmark run measured. Byte counts are in IFile record layout (vint lengths, key, value), the
 * unit of the workload's sizes; {@code linkBytesTotal} and {@code bytesIntoRoots} count chunk payload bytes, which are
 * whole records in that layout too.
 *
 * @param options           what was run
 * @param ratioSAchieved    S as generated (output bytes / intermediate bytes)
 * @param seconds           from starting the shuffles to the last root's end, the reduce included
 * @param firstByteSeconds  from starting the shuffles to the first chunk reaching the last reducer to get one: how long
 *                          the trees take to fill before the reducers see data; NaN if no reducer got a chunk
 * @param lowerBound        the least time for the busiest root (see {@link LowerBound})
 * @param switchBound       the paper's switch bounds for the same workload (see {@link SwitchBound})
 * @param intermediateBytes all map outputs
 * @param outputBytes       the fully combined output (reference)
 * @param bytesIntoRoots    bytes the root streams delivered to the reduce tasks, summed over roots
 * @param linkBytesTotal    bytes vertex streams sent between distinct servers (one count per stream hop)
 * @param recordsCombined   records the on-path combiners removed
 * @param outputRecords     records the reducers output
 * @param referenceRecords  records of the reference output
 * @param outputSha256      digest of the reducers' output in partition order
 * @param referenceSha256   digest of the reference output
 * @param cpuUtilisation    process CPU time / (seconds x cores) during the shuffle, or NaN if unavailable
 * @param cpuSeconds        process CPU time of the timed part (every thread of the JVM, the embedded torus included),
 *                          or NaN if unavailable
 * @param cores             processors available to the JVM
 * @param generateSeconds   writing the workload and computing the reference (not in {@code seconds})
 * @param startupSeconds    starting the embedded torus (not in {@code seconds})
 */
public record ShuffleBenchResult(ShuffleBenchOptions options, double ratioSAchieved, double seconds,
        double firstByteSeconds, LowerBound lowerBound, SwitchBound switchBound, long intermediateBytes, long outputBytes, long bytesIntoRoots, long linkBytesTotal,
        long recordsCombined, long outputRecords, long referenceRecords, String outputSha256, String referenceSha256,
        double cpuUtilisation, double cpuSeconds, int cores, double generateSeconds, double startupSeconds) {

    /** Whether the shuffle's output equals the reference, digest and record count. */
    public boolean correct() {
        return outputSha256.equals(referenceSha256) && outputRecords == referenceRecords;
    }

    /**
     * Map output (intermediate) bytes moved per process CPU-second of the timed part, in MB (10^6 bytes): the data
     * path's efficiency, comparable across link rates and modes; NaN when the CPU time is unknown or zero.
     */
    public double mapOutputMbPerCpuSecond() {
        return cpuSeconds > 0 ? intermediateBytes / 1e6 / cpuSeconds : Double.NaN;
    }

    public double ratioToLowerBound() {
        return seconds / lowerBound.seconds();
    }

    public ObjectNode toJson(ObjectMapper mapper) {
        ObjectNode o = mapper.createObjectNode();
        o.put("mode", options.mode().label());
        o.put("shape", options.shape().toString());
        o.put("trees", options.trees().label());
        o.put("reducers", options.reducers());
        o.put("ratio_s", options.ratioS());
        o.put("ratio_s_achieved", ratioSAchieved);
        o.put("mb_per_server", options.mbPerServer());
        o.put("link_mbps", options.linkMbps());
        o.put("seed", options.seed());
        o.put("seconds", seconds);
        putNumber(o, "first_byte_seconds", firstByteSeconds);
        putNumber(o, "lower_bound_seconds", lowerBound.seconds());
        putNumber(o, "ratio_to_lower_bound", ratioToLowerBound());
        o.put("lower_bound_bytes", lowerBound.bytes());
        o.put("lower_bound_links", lowerBound.inboundLinks());
        o.put("lower_bound_partition", lowerBound.busiestPartition());
        putNumber(o, "switch_1link_seconds", switchBound.oneLinkSeconds());
        putNumber(o, "switch_6links_seconds", switchBound.sixLinksSeconds());
        o.put("switch_busiest_bytes", switchBound.busiestBytes());
        o.put("segment_bytes", options.segmentBytes());
        o.put("intermediate_bytes", intermediateBytes);
        o.put("output_bytes", outputBytes);
        o.put("bytes_into_roots", bytesIntoRoots);
        o.put("link_bytes_total", linkBytesTotal);
        o.put("records_combined", recordsCombined);
        o.put("output_records", outputRecords);
        o.put("reference_records", referenceRecords);
        o.put("output_sha256", outputSha256);
        o.put("reference_sha256", referenceSha256);
        o.put("correct", correct());
        putNumber(o, "cpu_utilisation", cpuUtilisation);
        putNumber(o, "cpu_seconds", cpuSeconds);
        putNumber(o, "map_output_mb_per_cpu_second", mapOutputMbPerCpuSecond());
        o.put("cores", cores);
        o.put("generate_seconds", generateSeconds);
        o.put("startup_seconds", startupSeconds);
        return o;
    }

    private static void putNumber(ObjectNode o, String name, double value) {
        if (Double.isFinite(value)) {
            o.put(name, value);
        } else {
            o.putNull(name);
        }
    }

    /** A short table for people. */
    public String toText() {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "shuffle benchmark: %s, %s trees, shape %s, R=%d, S=%s (achieved %.4f), "
                + "%.2f MB/server, links %s, seed %d%n", options.mode().label(), options.trees().label(),
                options.shape(), options.reducers(), options.ratioS(), ratioSAchieved, options.mbPerServer(),
                options.linkMbps() == 0 ? "unshaped" : options.linkMbps() + " Mbit/s", options.seed()));
        row(b, "segment", options.segmentBytes() + " bytes");
        row(b, "shuffle + reduce", String.format(Locale.ROOT, "%.3f s", seconds));
        row(b, "first bytes", Double.isFinite(firstByteSeconds)
                ? String.format(Locale.ROOT, "%.3f s (until the reducers' first chunk)", firstByteSeconds) : "n/a");
        row(b, "lower bound", Double.isFinite(lowerBound.seconds())
                ? String.format(Locale.ROOT, "%.3f s (%d bytes over %d link(s)); ratio %.2f", lowerBound.seconds(),
                        lowerBound.bytes(), lowerBound.inboundLinks(), ratioToLowerBound())
                : "n/a (unshaped links)");
        row(b, "switch bounds", Double.isFinite(switchBound.oneLinkSeconds())
                ? String.format(Locale.ROOT, "%.3f s on 1 link, %.3f s on 6 (%d bytes through the busiest port)",
                        switchBound.oneLinkSeconds(), switchBound.sixLinksSeconds(), switchBound.busiestBytes())
                : "n/a (unshaped links)");
        row(b, "intermediate bytes", String.format(Locale.ROOT, "%,d", intermediateBytes));
        row(b, "output bytes", String.format(Locale.ROOT, "%,d", outputBytes));
        row(b, "bytes into roots", String.format(Locale.ROOT, "%,d", bytesIntoRoots));
        row(b, "link bytes total", String.format(Locale.ROOT, "%,d", linkBytesTotal));
        row(b, "records combined", String.format(Locale.ROOT, "%,d", recordsCombined));
        row(b, "output records", String.format(Locale.ROOT, "%,d (reference %,d)", outputRecords, referenceRecords));
        row(b, "output sha256", outputSha256);
        row(b, "reference sha256", referenceSha256 + (correct() ? "  (match)" : "  (MISMATCH)"));
        row(b, "cpu utilisation", Double.isFinite(cpuUtilisation)
                ? String.format(Locale.ROOT, "%.0f %% of %d cores", 100 * cpuUtilisation, cores) : "n/a");
        row(b, "map output / cpu-s", Double.isFinite(mapOutputMbPerCpuSecond())
                ? String.format(Locale.ROOT, "%.1f MB per CPU-second (%.3f CPU-s)", mapOutputMbPerCpuSecond(),
                        cpuSeconds)
                : "n/a");
        row(b, "not timed", String.format(Locale.ROOT, "generate %.1f s, torus start-up %.1f s", generateSeconds,
                startupSeconds));
        return b.toString();
    }

    private static void row(StringBuilder b, String name, String value) {
        b.append(String.format(Locale.ROOT, "  %-20s %s%n", name, value));
    }
}
