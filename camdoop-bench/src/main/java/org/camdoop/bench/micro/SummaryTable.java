package org.camdoop.bench.micro;

import java.util.ArrayList;
import java.util.List;

/** A titled table of strings, printed aligned for the console or as Markdown for the report file. */
final class SummaryTable {
    private final String title;
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    SummaryTable(String title, String... header) {
        this.title = title;
        this.header = List.of(header);
    }

    void add(String... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException(cells.length + " cells for " + header.size() + " columns");
        }
        rows.add(List.of(cells));
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    String toText() {
        int[] width = new int[header.size()];
        for (List<String> row : allRows()) {
            for (int c = 0; c < width.length; c++) {
                width[c] = Math.max(width[c], row.get(c).length());
            }
        }
        StringBuilder s = new StringBuilder(title).append('\n');
        for (List<String> row : allRows()) {
            for (int c = 0; c < width.length; c++) {
                // First column (the benchmark) left-aligned, figures right-aligned.
                String cell = row.get(c);
                String pad = " ".repeat(width[c] - cell.length());
                s.append(c == 0 ? "  " + cell + pad : "  " + pad + cell);
            }
            s.append('\n');
        }
        return s.toString();
    }

    String toMarkdown() {
        StringBuilder s = new StringBuilder("### ").append(title).append("\n\n");
        s.append("| ").append(String.join(" | ", header)).append(" |\n|");
        for (int c = 0; c < header.size(); c++) {
            s.append(c == 0 ? " --- |" : " ---: |");
        }
        s.append('\n');
        for (List<String> row : rows) {
            s.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        return s.toString();
    }

    private List<List<String>> allRows() {
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        return all;
    }
}
