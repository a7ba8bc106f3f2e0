package org.camdoop.workload;

import java.util.Objects;
import java.util.Optional;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.JobConf;

/**
 * The parameters of one synthetic workload: what {@link SyntheticWorkload#generate} needs, nothing else.
 *
 * @param servers N, the number of map outputs (one per server)
 * @param keys how keys are drawn (the paper's S-ratio strings, or Zipf-skewed keys)
 * @param bytesPerServer M: for {@link KeyModel.Uniform}, the intermediate bytes of each server's map output; for
 *     {@link KeyModel.Zipf}, the bytes of the map's (key, 1) emissions before its combiner folds repeated keys. Bytes
 *     are counted in IFile record layout (see {@link KeyStrings#recordBytes(int)}); each server ends at the first record
 *     that reaches M, so it overshoots by less than one record
 * @param reducers R, the number of partitions of every map output
 * @param seed everything generated is a function of the spec, this seed included
 * @param codec the map output codec ({@code mapreduce.map.output.compress.codec}), or empty for uncompressed output
 */
public record WorkloadSpec(int servers, KeyModel keys, long bytesPerServer, int reducers, long seed,
        Optional<Class<? extends CompressionCodec>> codec) {

    public WorkloadSpec {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(codec, "codec");
        if (servers < 1) {
            throw new IllegalArgumentException("servers must be >= 1: " + servers);
        }
        if (bytesPerServer < 0) {
            throw new IllegalArgumentException("bytesPerServer must be >= 0: " + bytesPerServer);
        }
        if (reducers < 1) {
            throw new IllegalArgumentException("reducers must be >= 1: " + reducers);
        }
    }

    /** The paper's workload: S-ratio keys, uncompressed map output. */
    public static WorkloadSpec sRatio(int servers, double outputRatio, long bytesPerServer, int reducers, long seed) {
        return new WorkloadSpec(servers, new KeyModel.Uniform(outputRatio), bytesPerServer, reducers, seed,
                Optional.empty());
    }

    /** Zipf-skewed keys, uncompressed map output. */
    public static WorkloadSpec zipf(int servers, KeyModel.Zipf keys, long bytesPerServer, int reducers, long seed) {
        return new WorkloadSpec(servers, keys, bytesPerServer, reducers, seed, Optional.empty());
    }

    /** This spec with map output compressed by {@code codecClass}. */
    public WorkloadSpec withCodec(Class<? extends CompressionCodec> codecClass) {
        return new WorkloadSpec(servers, keys, bytesPerServer, reducers, seed, Optional.of(codecClass));
    }

    /**
     * A job configuration describing these map outputs the way the job that wrote them would: Text keys, IntWritable
     * values, R reducers and the codec. Readers need it to decode the files. A fresh instance on every call.
     */
    public JobConf mapOutputJob() {
        JobConf job = new JobConf(false);
        job.setMapOutputKeyClass(Text.class);
        job.setMapOutputValueClass(IntWritable.class);
        job.setNumReduceTasks(reducers);
        codec.ifPresent(c -> {
            job.setCompressMapOutput(true);
            job.setMapOutputCompressorClass(c);
        });
        return job;
    }
}
