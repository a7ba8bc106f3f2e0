package org.camdoop.cli.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What the demo prints: one row per run and whether the two outputs were identical.
 *
 * @param corpusBytes size of the generated corpus
 * @param stock the run with Hadoop's own shuffle
 * @param camdoop the run with Camdoop's collector and shuffle
 * @param outputsIdentical whether the reducers' part files were equal byte for byte
 */
public record DemoSummary(long corpusBytes, DemoRow stock, DemoRow camdoop, boolean outputsIdentical) {

    private static final String MISSING = "-";
    private static final String FORMAT = "%-8s %8s %12s %16s %16s %8s%n";

    /** The table, one line per run, then the verdict line. */
    public String table() {
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, FORMAT, "run", "job s", "reduce s", "reducer bytes", "torus bytes",
                "ratio"));
        for (DemoRow row : List.of(stock, camdoop)) {
            text.append(String.format(Locale.ROOT, FORMAT, row.name(), String.format(Locale.ROOT, "%.1f",
                    row.jobSeconds()), seconds(row.reduceMillis()), bytes(row.reducerBytes()),
                    bytes(row.torusLinkBytes()), ratio(row.combineRatio())));
        }
        text.append("outputs identical: ").append(outputsIdentical ? "yes" : "NO").append('\n');
        return text.toString();
    }

    /** The same as one JSON object; a missing value is {@code null}. */
    public String toJson() {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("corpusBytes", corpusBytes);
        for (DemoRow row : List.of(stock, camdoop)) {
            ObjectNode o = root.putObject(row.name());
            o.put("jobSeconds", Math.round(row.jobSeconds() * 1000) / 1000.0);
            putOrNull(o, "reduceTaskMillis", row.reduceMillis());
            putOrNull(o, "reducerBytes", row.reducerBytes());
            putOrNull(o, "mapOutputBytes", row.mapOutputBytes());
            putOrNull(o, "torusLinkBytes", row.torusLinkBytes());
            OptionalDouble ratio = row.combineRatio();
            if (ratio.isPresent()) {
                o.put("combineRatio", Math.round(ratio.getAsDouble() * 10000) / 10000.0);
            } else {
                o.putNull("combineRatio");
            }
        }
        root.put("outputsIdentical", outputsIdentical);
        return root.toString();
    }

    private static void putOrNull(ObjectNode o, String field, OptionalLong value) {
        if (value.isPresent()) {
            o.put(field, value.getAsLong());
        } else {
            o.putNull(field);
        }
    }

    private static String seconds(OptionalLong millis) {
        return millis.isPresent() ? String.format(Locale.ROOT, "%.1f", millis.getAsLong() / 1000.0) : MISSING;
    }

    private static String bytes(OptionalLong value) {
        return value.isPresent() ? Long.toString(value.getAsLong()) : MISSING;
    }

    private static String ratio(OptionalDouble value) {
        return value.isPresent() ? String.format(Locale.ROOT, "%.3f", value.getAsDouble()) : MISSING;
    }
}
