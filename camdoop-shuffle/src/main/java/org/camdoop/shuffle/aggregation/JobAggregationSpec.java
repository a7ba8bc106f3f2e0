package org.camdoop.shuffle.aggregation;

import java.util.Optional;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.CryptoUtils;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Everything the engine needs to know about one job, derived once from its JobConf exactly as Hadoop's own map and
 * combine code derives it: the sort comparator, the combiner's grouping comparator, the map output classes and their
 * serializers, the map output codec and the combiner. Immutable; the JobConf inside must not be modified afterwards.
 */
public final class JobAggregationSpec {
    /** Default upper bound of one wire chunk (bytes); a single larger record gets a chunk of its own. */
    public static final int DEFAULT_CHUNK_BYTES = 64 * 1024;
    /** Default bytes of complete key groups gathered before the combiner runs over them as one batch. */
    public static final int DEFAULT_COMBINE_BATCH_BYTES = 64 * 1024;

    private final JobConf job;
    private final RawComparator<Object> sortComparator;
    private final RawComparator<Object> combinerGroupingComparator;
    private final Class<?> keyClass;
    private final Class<?> valueClass;
    private final SerializationFactory serializationFactory;
    private final Optional<CompressionCodec> mapOutputCodec;
    private final Optional<CombinerFactory> combiner;
    private final int chunkBytes;
    private final int combineBatchBytes;

    private JobAggregationSpec(JobConf job, Optional<CombinerFactory> combiner, int chunkBytes, int combineBatchBytes) {
        this.job = job;
        this.sortComparator = comparator(job.getOutputKeyComparator());
        this.combinerGroupingComparator = comparator(job.getCombinerKeyGroupingComparator());
        this.keyClass = job.getMapOutputKeyClass();
        this.valueClass = job.getMapOutputValueClass();
        this.serializationFactory = new SerializationFactory(job);
        this.mapOutputCodec = job.getCompressMapOutput()
                ? Optional.of(ReflectionUtils.newInstance(job.getMapOutputCompressorClass(DefaultCodec.class), job))
                : Optional.empty();
        this.combiner = combiner;
        this.chunkBytes = chunkBytes;
        this.combineBatchBytes = combineBatchBytes;
    }

    /**
     * The spec of {@code job}, with its combiner if it has one. The combiner is looked up as Hadoop's
     * {@code Task.CombinerRunner.create} does: the old-API class ({@link JobConf#getCombinerClass()}) first, then the
     * new-API class ({@link MRJobConfig#COMBINE_CLASS_ATTR}).
     *
     * @throws IllegalArgumentException if the job encrypts intermediate data (by design: see docs/getting-started.md)
     */
    public static JobAggregationSpec fromJob(JobConf job) {
        if (CryptoUtils.isEncryptedSpillEnabled(job)) {
            throw new IllegalArgumentException(MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA
                    + "=true: the daemons do not read encrypted map output; run this job on the stock shuffle");
        }
        return new JobAggregationSpec(job, CombinerFactory.forJob(job), DEFAULT_CHUNK_BYTES, DEFAULT_COMBINE_BATCH_BYTES);
    }

    /** The same job merged without on-path combining (the "noagg" mode, or a job whose reduce is not associative). */
    public JobAggregationSpec withoutCombiner() {
        return new JobAggregationSpec(job, Optional.empty(), chunkBytes, combineBatchBytes);
    }

    /** The same job with another wire chunk bound and combine batch size (bytes, both positive). */
    public JobAggregationSpec withBufferSizes(int chunkBytes, int combineBatchBytes) {
        if (chunkBytes <= 0 || combineBatchBytes <= 0) {
            throw new IllegalArgumentException("sizes must be positive: " + chunkBytes + ", " + combineBatchBytes);
        }
        return new JobAggregationSpec(job, combiner, chunkBytes, combineBatchBytes);
    }

    @SuppressWarnings("unchecked")
    private static RawComparator<Object> comparator(RawComparator<?> c) {
        return (RawComparator<Object>) c;
    }

    public JobConf job() {
        return job;
    }

    /** The job's sort order ({@link JobConf#getOutputKeyComparator()}); every run is sorted by it. */
    public RawComparator<Object> sortComparator() {
        return sortComparator;
    }

    /** Which keys one combiner call sees together ({@link JobConf#getCombinerKeyGroupingComparator()}). */
    public RawComparator<Object> combinerGroupingComparator() {
        return combinerGroupingComparator;
    }

    public Class<?> keyClass() {
        return keyClass;
    }

    public Class<?> valueClass() {
        return valueClass;
    }

    public SerializationFactory serializationFactory() {
        return serializationFactory;
    }

    /** The codec the map side compressed its output with, if the job compresses map output. */
    public Optional<CompressionCodec> mapOutputCodec() {
        return mapOutputCodec;
    }

    /** The job's combiner, if it has one and on-path combining is on. */
    public Optional<CombinerFactory> combiner() {
        return combiner;
    }

    public int chunkBytes() {
        return chunkBytes;
    }

    public int combineBatchBytes() {
        return combineBatchBytes;
    }
}
