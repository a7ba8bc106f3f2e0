package org.camdoop.bench.hadoop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;

/**
 * Whether the stock and the Camdoop run of a job wrote the same output: the same part files, byte for byte for text
 * (wordcount), record for record for SequenceFiles (sort: each file carries its own random sync marker, so the bytes
 * differ even for equal records).
 */
final class OutputsMatch {

    private OutputsMatch() {
    }

    /** Empty when the part files are byte-identical, else what differs first. */
    static Optional<String> sameBytes(Path stock, Path camdoop) throws IOException {
        Optional<String> names = sameNames(stock, camdoop);
        if (names.isPresent()) {
            return names;
        }
        for (String part : partFiles(stock)) {
            long at = Files.mismatch(stock.resolve(part), camdoop.resolve(part));
            if (at >= 0) {
                return Optional.of(part + " differs from byte " + at);
            }
        }
        return Optional.empty();
    }

    /** Empty when the part files hold the same BytesWritable records in the same order, else what differs first. */
    static Optional<String> sameRecords(Path stock, Path camdoop) throws IOException {
        Optional<String> names = sameNames(stock, camdoop);
        if (names.isPresent()) {
            return names;
        }
        Configuration conf = new Configuration();
        for (String part : partFiles(stock)) {
            try (SequenceFile.Reader a = reader(conf, stock.resolve(part));
                    SequenceFile.Reader b = reader(conf, camdoop.resolve(part))) {
                BytesWritable ka = new BytesWritable();
                BytesWritable va = new BytesWritable();
                BytesWritable kb = new BytesWritable();
                BytesWritable vb = new BytesWritable();
                for (long i = 0; ; i++) {
                    boolean moreA = a.next(ka, va);
                    boolean moreB = b.next(kb, vb);
                    if (moreA != moreB) {
                        return Optional.of(part + " has " + (moreA ? "fewer" : "more") + " records with Camdoop ("
                                + i + " in common)");
                    }
                    if (!moreA) {
                        break;
                    }
                    if (!ka.equals(kb) || !va.equals(vb)) {
                        return Optional.of(part + " differs at record " + i);
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<String> sameNames(Path stock, Path camdoop) throws IOException {
        List<String> a = partFiles(stock);
        List<String> b = partFiles(camdoop);
        if (a.isEmpty()) {
            return Optional.of("the stock run wrote no part files in " + stock);
        }
        return a.equals(b) ? Optional.empty()
                : Optional.of("part files differ: stock " + a + ", camdoop " + b);
    }

    static List<String> partFiles(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("part-")).sorted().toList();
        }
    }

    private static SequenceFile.Reader reader(Configuration conf, Path file) throws IOException {
        return new SequenceFile.Reader(conf, SequenceFile.Reader.file(new org.apache.hadoop.fs.Path(file.toUri())));
    }
}
