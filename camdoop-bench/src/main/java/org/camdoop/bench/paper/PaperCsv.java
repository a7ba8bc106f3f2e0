package org.camdoop.bench.paper;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.camdoop.bench.shuffle.ShuffleBenchResult;

/** Writes a sweep's results as CSV: one row per point, in run order, with the bounds beside each time. */
final class PaperCsv {

    static final List<String> COLUMNS = List.of("mode", "ratio_s", "ratio_s_achieved", "reducers", "mb_per_server",
            "link_mbps", "segment_bytes", "seconds", "lower_bound_seconds", "switch_1link_seconds",
            "switch_6links_seconds", "cpu_utilisation", "intermediate_bytes", "output_bytes", "bytes_into_roots",
            "link_bytes_total", "records_combined", "output_records", "correct");

    private PaperCsv() {
    }

    static void write(PaperResults results, Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(String.join(",", COLUMNS));
            w.write('\n');
            for (Map.Entry<PaperPoint, ShuffleBenchResult> e : results.results().entrySet()) {
                w.write(row(e.getKey(), e.getValue()));
                w.write('\n');
            }
        }
    }

    static String row(PaperPoint p, ShuffleBenchResult r) {
        return String.join(",", p.mode().label(), num(p.ratioS()), num(r.ratioSAchieved()),
                Integer.toString(p.reducers()), num(p.mbPerServer()), num(r.options().linkMbps()),
                Integer.toString(r.options().segmentBytes()), num(r.seconds()), num(r.lowerBound().seconds()),
                num(r.switchBound().oneLinkSeconds()), num(r.switchBound().sixLinksSeconds()),
                num(r.cpuUtilisation()), Long.toString(r.intermediateBytes()), Long.toString(r.outputBytes()),
                Long.toString(r.bytesIntoRoots()), Long.toString(r.linkBytesTotal()),
                Long.toString(r.recordsCombined()), Long.toString(r.outputRecords()), Boolean.toString(r.correct()));
    }

    /** Six significant digits, no trailing zeros; empty for a value that does not exist (CPU time unavailable). */
    static String num(double v) {
        return Double.isFinite(v)
                ? new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros().toPlainString()
                : "";
    }
}
