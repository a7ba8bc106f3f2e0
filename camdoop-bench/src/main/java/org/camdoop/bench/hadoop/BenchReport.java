package org.camdoop.bench.hadoop;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/**
 * The benchmark's output: one row per job and shuffle, then per job the ratios camdoop/stock of each figure. As a
 * human table, one JSON object, or CSV rows (one line per job and shuffle, no ratios: they follow from the rows).
 *
 * @param sizes what was run
 * @param rows the measured jobs, a stock row before its camdoop row
 */
record BenchReport(BenchSizes sizes, List<JobFigures> rows) {

    /** One figure of a row, by its column name. */
    record Figure(String name, ToDoubleFunction<JobFigures> of, boolean bytes) {
    }

    static final List<Figure> FIGURES = List.of(
            new Figure("job s", JobFigures::jobSeconds, false),
            new Figure("shuffle+reduce s", JobFigures::shuffleReduceSeconds, false),
            new Figure("network bytes", JobFigures::networkBytes, true),
            new Figure("reduce disk bytes", JobFigures::reduceDiskBytes, true),
            new Figure("output bytes", JobFigures::outputBytes, true),
            new Figure("disk net of output", JobFigures::diskBytesNetOfOutput, true));

    static final String CSV_HEADER = "job,shuffle,job_id,job_s,shuffle_reduce_s,network_bytes,network_source,"
            + "network_estimate_bytes,reduce_disk_bytes,"
            + "output_bytes,disk_net_of_output_bytes,shuffle_bytes,map_output_bytes,camdoop_received_bytes,"
            + "camdoop_map_output_bytes,records_combined,stock_fallbacks,maps,reduces,nodes";

    BenchReport {
        rows = List.copyOf(rows);
    }

    /** camdoop/stock of one figure for {@code job}; empty when either row is missing or stock's figure is 0. */
    OptionalDouble ratio(String job, Figure figure) {
        JobFigures stock = row(job, "stock");
        JobFigures camdoop = row(job, "camdoop");
        if (stock == null || camdoop == null || figure.of().applyAsDouble(stock) == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(figure.of().applyAsDouble(camdoop) / figure.of().applyAsDouble(stock));
    }

    /** The jobs in the order they ran. */
    List<String> jobs() {
        return rows.stream().map(JobFigures::job).distinct().toList();
    }

    /** The human table with its heading and the notes that say what the figures are. */
    String table() {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "camdoop bench hadoop: 3 NodeManagers, 3x3x3 torus (27 daemons);"
                + " wordcount of %d MiB randomtextwriter text, sort of %d MiB randomwriter output; %d maps,"
                + " %d reduces per job%n", sizes.wordcountMb(), sizes.sortMb(), sizes.maps(), sizes.reduces()));
        String format = "%-10s %-8s" + " %18s".repeat(FIGURES.size()) + "%n";
        List<Object> head = new ArrayList<>(List.of("job", "shuffle"));
        FIGURES.forEach(f -> head.add(f.name()));
        s.append(String.format(Locale.ROOT, format, head.toArray()));
        for (String job : jobs()) {
            for (String shuffle : List.of("stock", "camdoop")) {
                JobFigures row = row(job, shuffle);
                if (row == null) {
                    continue;
                }
                List<Object> cells = new ArrayList<>(List.of(job, shuffle));
                FIGURES.forEach(f -> cells.add(cell(f, f.of().applyAsDouble(row))));
                s.append(String.format(Locale.ROOT, format, cells.toArray()));
            }
            List<Object> cells = new ArrayList<>(List.of(job, "ratio"));
            FIGURES.forEach(f -> cells.add(ratioText(ratio(job, f))));
            s.append(String.format(Locale.ROOT, format, cells.toArray()));
        }
        s.append("ratio = camdoop/stock. job s: JobHistory launch to finish; shuffle+reduce s: last map's finish to the"
                + " job's finish.\n");
        s.append("network bytes: camdoop = the counter of bytes sent on torus links between distinct servers (once per"
                + " hop); stock = bytes the reduces fetched from maps on another NodeManager:\n");
        for (JobFigures r : rows) {
            if (r.shuffle().equals("stock")) {
                s.append(String.format(Locale.ROOT, "  %s stock: %s%n", r.job(),
                        r.networkSource().equals("fetcher-logs")
                                ? "exact, from the reduce tasks' Fetcher log lines (the counter-based estimate would"
                                        + " say " + r.networkEstimateBytes() + ")"
                                : "ESTIMATE, per reduce REDUCE_SHUFFLE_BYTES x share of map output on other"
                                        + " NodeManagers (the Fetcher log lines were incomplete)"));
            }
        }
        s.append("reduce disk bytes: FILE_BYTES_WRITTEN of the reduce tasks, including the job output (file:///);"
                + " output bytes: FileOutputFormat BYTES_WRITTEN.\n");
        for (String job : jobs()) {
            JobFigures c = row(job, "camdoop");
            if (c != null) {
                String share = c.camdoopMapOutputs() == 0 ? "n/a"
                        : String.format(Locale.ROOT, "%.3f", (double) c.camdoopReceived() / c.camdoopMapOutputs());
                s.append(String.format(Locale.ROOT, "camdoop combine, %s: the reducers received %d bytes of the %d"
                        + " bytes the map outputs held (%s), %d records combined on path%n", job, c.camdoopReceived(),
                        c.camdoopMapOutputs(), share, c.recordsCombined()));
            }
        }
        return s.toString();
    }

    /** The CSV rows, header first, one line per job and shuffle. */
    String csv() {
        StringBuilder s = new StringBuilder(CSV_HEADER).append('\n');
        for (JobFigures r : rows) {
            s.append(String.join(",", r.job(), r.shuffle(), r.jobId(), seconds(r.jobSeconds()),
                    seconds(r.shuffleReduceSeconds()), Long.toString(r.networkBytes()), r.networkSource(),
                    Long.toString(r.networkEstimateBytes()),
                    Long.toString(r.reduceDiskBytes()), Long.toString(r.outputBytes()),
                    Long.toString(r.diskBytesNetOfOutput()), Long.toString(r.shuffleBytes()),
                    Long.toString(r.mapOutputBytes()), Long.toString(r.camdoopReceived()),
                    Long.toString(r.camdoopMapOutputs()), Long.toString(r.recordsCombined()),
                    Long.toString(r.stockFallbacks()), Integer.toString(r.maps()), Integer.toString(r.reduces()),
                    Integer.toString(r.nodes()))).append('\n');
        }
        return s.toString();
    }

    /** One JSON object: the sizes, the rows, and per job the ratios (null where undefined). */
    String json() {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        ObjectNode sz = root.putObject("sizes");
        sz.put("wordcount_mb", sizes.wordcountMb());
        sz.put("sort_mb", sizes.sortMb());
        sz.put("maps", sizes.maps());
        sz.put("reduces", sizes.reduces());
        String[] names = CSV_HEADER.split(",");
        var array = root.putArray("rows");
        for (String line : csv().split("\n")) {
            if (line.equals(CSV_HEADER)) {
                continue;
            }
            String[] cells = line.split(",");
            ObjectNode row = array.addObject();
            for (int i = 0; i < names.length; i++) {
                if (i < 3 || names[i].equals("network_source")) {
                    row.put(names[i], cells[i]);
                } else {
                    row.put(names[i], new java.math.BigDecimal(cells[i]));
                }
            }
        }
        ObjectNode ratios = root.putObject("ratios_camdoop_over_stock");
        for (String job : jobs()) {
            ObjectNode r = ratios.putObject(job);
            for (Figure f : FIGURES) {
                OptionalDouble v = ratio(job, f);
                String key = f.name().replace(" s", "_s").replace('+', '_').replace(' ', '_');
                if (v.isPresent()) {
                    r.put(key, Math.round(v.getAsDouble() * 1000) / 1000.0);
                } else {
                    r.putNull(key);
                }
            }
        }
        return root.toString();
    }

    private JobFigures row(String job, String shuffle) {
        return rows.stream().filter(r -> r.job().equals(job) && r.shuffle().equals(shuffle)).findFirst().orElse(null);
    }

    static String ratioText(OptionalDouble ratio) {
        return ratio.isPresent() ? String.format(Locale.ROOT, "%.3f", ratio.getAsDouble()) : "n/a";
    }

    private static String cell(Figure f, double value) {
        return f.bytes() ? String.format(Locale.ROOT, "%d", (long) value) : seconds(value);
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.1f", s);
    }
}
