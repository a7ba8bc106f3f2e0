package org.camdoop.shuffle.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.daemon.EmbeddedTorus;
import org.camdoop.shuffle.service.vertex.LocalMapOutput;
import org.camdoop.shuffle.testing.WordCounts;

/**
 * The map outputs of one fault campaign torus, as its ApplicationMaster would track them: each map's words, its
 * current attempt, and the server holding that attempt's output. A map whose output died with its server runs again
 * on another server under its next attempt number and writes the same words (the maps are deterministic).
 */
final class CampaignMaps {

    private final String job;
    private final JobConf conf;
    private final EmbeddedTorus torus;
    private final Path dir;
    private final SortedMap<Integer, Map<String, Integer>> words = new TreeMap<>();
    private final Map<Integer, Integer> attemptNumber = new HashMap<>();
    private final Map<Integer, Integer> holder = new HashMap<>();

    CampaignMaps(String job, JobConf conf, EmbeddedTorus torus, Path dir) throws IOException {
        this.job = job;
        this.conf = conf;
        this.torus = torus;
        this.dir = Files.createDirectories(dir);
    }

    /** Map {@code map} runs its first attempt on {@code server} and writes {@code counts}. */
    void add(int map, int server, Map<String, Integer> counts) throws IOException {
        words.put(map, counts);
        attemptNumber.put(map, 0);
        write(map, server);
    }

    /** Runs {@code map} again on {@code server}, and returns its new attempt. */
    String rerun(int map, int server) throws IOException {
        attemptNumber.merge(map, 1, Integer::sum);
        return write(map, server);
    }

    private String write(int map, int server) throws IOException {
        String attempt = attempt(map);
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".out").toString());
        org.apache.hadoop.fs.Path index = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".idx").toString());
        WordCounts.write(conf, file, index, words.get(map));
        torus.addMapOutput(server, job, new LocalMapOutput(attempt, file, index));
        holder.put(map, server);
        return attempt;
    }

    private String attempt(int map) {
        return String.format("attempt_1700000000000_0041_m_%06d_%d", map, attemptNumber.get(map));
    }

    /** The current attempt of every map, which a shuffle started now reads. */
    SortedSet<String> attempts() {
        SortedSet<String> out = new TreeSet<>();
        words.keySet().forEach(m -> out.add(attempt(m)));
        return out;
    }

    /** Every map's words (whatever attempt wrote them: the same). */
    List<Map<String, Integer>> words() {
        return new ArrayList<>(words.values());
    }

    /** The maps whose current output is on {@code server}. */
    List<Integer> heldBy(int server) {
        return words.keySet().stream().filter(m -> holder.get(m) == server).toList();
    }

    /** The map whose current attempt is {@code attempt}, or -1 if it is none's (an old or unknown attempt). */
    int mapOf(String attempt) {
        return words.keySet().stream().filter(m -> attempt(m).equals(attempt)).findFirst().orElse(-1);
    }

    int holderOf(int map) {
        return holder.get(map);
    }

    /** The maps in order. */
    List<Integer> maps() {
        return List.copyOf(words.keySet());
    }
}
