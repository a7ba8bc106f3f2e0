package org.camdoop.bench.hadoop;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/**
 * {@code bench cluster}'s output: one row per job and shuffle, the ratios camdoop/stock, and the targets met
 * or missed, as a table or CSV.
 *
 * @param sizes what was run
 * @param linkMbps the testbed's link (and switch port) rate
 * @param nodeManagers hosts with a NodeManager
 * @param rows the measured jobs, a stock row before its camdoop row
 */
record ClusterReport(ClusterBench.Sizes sizes, int linkMbps, int nodeManagers, List<Row> rows) {

    /**
     * One measured job.
     *
     * @param job its JobHistory figures
     * @param wire the testbed counters over the job (client start to exit)
     * @param clientSeconds the job client's run, start to exit
     */
    record Row(JobFigures job, TestbedCounters wire, double clientSeconds) {

        boolean camdoop() {
            return job.shuffle().equals("camdoop");
        }

        /** Bytes on the wire: every torus link and switch port, whichever shuffle ran. */
        long wireBytes() {
            return wire.torusBytes() + wire.switchBytes();
        }

        /**
         * The shortest the shuffle could take at the link rate: stock, the bytes the reducers fetched from other
         * NodeManagers through their switch ports (half the switch wire bytes, spread evenly over the reducers);
         * Camdoop, the
         * bytes the reducers received over their six torus links each, or all torus bytes spread evenly over every
         * link direction, whichever is longer.
         */
        double networkBoundSeconds(int linkMbps, int torusLinkDirections) {
            double rate = linkMbps * 1e6 / 8;
            if (!camdoop()) {
                return wire.switchBytes() / 2.0 / (job.reduces() * rate);
            }
            return Math.max(job.camdoopReceived() / (job.reduces() * 6 * rate),
                    wire.torusBytes() / (torusLinkDirections * rate));
        }
    }

    record Figure(String name, ToDoubleFunction<Row> of, boolean bytes) {
    }

    static final List<Figure> FIGURES = List.of(
            new Figure("job s", r -> r.job().jobSeconds(), false),
            new Figure("shuffle+reduce s", r -> r.job().shuffleReduceSeconds(), false),
            new Figure("wire MB", Row::wireBytes, true),
            new Figure("torus MB", r -> r.wire().torusBytes(), true),
            new Figure("switch MB", r -> r.wire().switchBytes(), true),
            new Figure("reduce disk MB", r -> r.job().diskBytesNetOfOutput(), true));

    ClusterReport {
        rows = List.copyOf(rows);
    }

    /** Link directions of the 3D torus: 3 links per server, each used both ways. */
    int torusLinkDirections() {
        return sizes.servers() * 3 * 2;
    }

    OptionalDouble ratio(String job, Figure f) {
        Row stock = row(job, false);
        Row camdoop = row(job, true);
        if (stock == null || camdoop == null || f.of().applyAsDouble(stock) == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(f.of().applyAsDouble(camdoop) / f.of().applyAsDouble(stock));
    }

    String table() {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "camdoop bench cluster: testbed, %d torus servers, %d NodeManagers, links"
                + " and switch ports %d Mbit/s; wordcount of %d MiB (Zipf %.2f over %d words), sort of %d MiB"
                + " randomwriter output, terasort of %d MiB; %d maps, %d reduces per job%n", sizes.servers(),
                nodeManagers, linkMbps, sizes.wordcountMb(), sizes.zipf(), sizes.vocabulary(), sizes.sortMb(),
                sizes.terasortMb(), sizes.maps(), sizes.reduces()));
        String format = "%-10s %-8s" + " %16s".repeat(FIGURES.size()) + " %10s %14s%n";
        List<Object> head = new ArrayList<>(List.of("job", "shuffle"));
        FIGURES.forEach(f -> head.add(f.name()));
        head.add("CPU");
        head.add("net bound s");
        s.append(String.format(Locale.ROOT, format, head.toArray()));
        for (String job : jobs()) {
            for (boolean camdoop : new boolean[] {false, true}) {
                Row r = row(job, camdoop);
                if (r == null) {
                    continue;
                }
                List<Object> cells = new ArrayList<>(List.of(job, camdoop ? "camdoop" : "stock"));
                FIGURES.forEach(f -> cells.add(cell(f, f.of().applyAsDouble(r))));
                cells.add(String.format(Locale.ROOT, "%.0f%%", 100 * r.wire().cpuShare()));
                cells.add(String.format(Locale.ROOT, "%.1f", r.networkBoundSeconds(linkMbps, torusLinkDirections())));
                s.append(String.format(Locale.ROOT, format, cells.toArray()));
            }
            List<Object> cells = new ArrayList<>(List.of(job, "ratio"));
            FIGURES.forEach(f -> cells.add(BenchReport.ratioText(ratio(job, f))));
            cells.add("");
            cells.add("");
            s.append(String.format(Locale.ROOT, format, cells.toArray()));
        }
        s.append("ratio = camdoop/stock. job s: JobHistory launch to finish; shuffle+reduce s: last map's finish to the"
                + " job's finish.\n");
        s.append("wire MB: bytes every host sent on its torus links and switch port during the job (kernel interface"
                + " counters, once per wire crossed: k times for a byte relayed over k torus hops, twice for one"
                + " through the switch).\n");
        s.append("reduce disk MB: FILE_BYTES_WRITTEN of the reduce tasks net of the job output. CPU: busy share of"
                + " all the machine's cores over the job (/proc/stat). net bound s: the shuffle's bytes at the link"
                + " rate (stock: switch bytes over the reducers' ports; camdoop: reducer in-links or all torus"
                + " links).\n");
        s.append("targets: ").append(target("wordcount", "shuffle+reduce s", 0.5)).append(", ")
                .append(target("wordcount", "wire MB", 0.5)).append(", ").append(target("sort", "job s", 1.1))
                .append('\n');
        return s.toString();
    }

    String csv() {
        StringBuilder s = new StringBuilder("job,shuffle,job_id,job_s,shuffle_reduce_s,client_s,torus_bytes,"
                + "switch_bytes,reduce_disk_bytes,output_bytes,camdoop_received_bytes,map_output_bytes,"
                + "records_combined,cpu_share,net_bound_s,maps,reduces,nodes\n");
        for (Row r : rows) {
            JobFigures j = r.job();
            s.append(String.format(Locale.ROOT, "%s,%s,%s,%.1f,%.1f,%.1f,%d,%d,%d,%d,%d,%d,%d,%.3f,%.1f,%d,%d,%d%n",
                    j.job(), j.shuffle(), j.jobId(), j.jobSeconds(), j.shuffleReduceSeconds(), r.clientSeconds(),
                    r.wire().torusBytes(), r.wire().switchBytes(), j.reduceDiskBytes(), j.outputBytes(),
                    j.camdoopReceived(), j.mapOutputBytes(), j.recordsCombined(), r.wire().cpuShare(),
                    r.networkBoundSeconds(linkMbps, torusLinkDirections()), j.maps(), j.reduces(), j.nodes()));
        }
        return s.toString();
    }

    private String target(String job, String figure, double limit) {
        Figure f = FIGURES.stream().filter(x -> x.name().equals(figure)).findFirst().orElseThrow();
        OptionalDouble r = ratio(job, f);
        return String.format(Locale.ROOT, "%s %s <= %.1fx stock: %s (%s)", job, figure, limit,
                BenchReport.ratioText(r), r.isEmpty() ? "n/a" : r.getAsDouble() <= limit ? "met" : "MISSED");
    }

    private List<String> jobs() {
        return rows.stream().map(r -> r.job().job()).distinct().toList();
    }

    private Row row(String job, boolean camdoop) {
        return rows.stream().filter(r -> r.job().job().equals(job) && r.camdoop() == camdoop).findFirst()
                .orElse(null);
    }

    private static String cell(Figure f, double v) {
        return f.bytes() ? String.format(Locale.ROOT, "%.2f", v / 1e6) : String.format(Locale.ROOT, "%.1f", v);
    }
}
