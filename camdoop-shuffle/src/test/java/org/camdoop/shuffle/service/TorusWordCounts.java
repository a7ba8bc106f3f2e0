package org.camdoop.shuffle.service;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.daemon.EmbeddedTorus;
import org.camdoop.shuffle.service.vertex.LocalMapOutput;
import org.camdoop.shuffle.testing.WordCounts;

/**
 * A word count job's map outputs on an embedded torus: one real IFile map output per chosen server (attempt
 * {@code m_<server index>}), words shared across servers (combinable) and words unique to each, and what each holds.
 *
 * @param maps     per map output written, its words and counts
 * @param attempts the map attempts written
 */
record TorusWordCounts(List<Map<String, Integer>> maps, TreeSet<String> attempts) {

    /**
     * Registers {@code jobId} with {@code conf} on every daemon and writes a map output of {@code words} draws on each
     * server {@code on} selects (half from {@code shared} common words), under {@code dir}.
     */
    static TorusWordCounts write(EmbeddedTorus torus, Path dir, String jobId, JobConf conf, IntPredicate on,
            long seed, int words, int shared) throws Exception {
        torus.registerJob(jobId, conf);
        Random rnd = new Random(seed);
        List<Map<String, Integer>> maps = new ArrayList<>();
        TreeSet<String> attempts = new TreeSet<>();
        for (int server = 0; server < torus.shape().size(); server++) {
            if (!on.test(server)) {
                continue;
            }
            String attempt = String.format("attempt_%s_m_%06d_0", jobId.substring("job_".length()), server);
            Map<String, Integer> counts = new TreeMap<>();
            for (int i = 0; i < words; i++) {
                String word = rnd.nextBoolean() ? "w" + rnd.nextInt(shared) : "only" + server + "-" + i;
                counts.merge(word, 1 + rnd.nextInt(3), Integer::sum);
            }
            org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".out").toString());
            org.apache.hadoop.fs.Path index = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".idx").toString());
            WordCounts.write(conf, file, index, counts);
            torus.addMapOutput(server, jobId, new LocalMapOutput(attempt, file, index));
            maps.add(counts);
            attempts.add(attempt);
        }
        return new TorusWordCounts(maps, attempts);
    }
}
