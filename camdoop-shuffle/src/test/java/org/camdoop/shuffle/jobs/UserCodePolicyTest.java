package org.camdoop.shuffle.jobs;

import org.camdoop.shuffle.protocol.JobSpec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.junit.jupiter.api.Test;

/** The policy sees only class names; "userjob.*" classes are not on the test (daemon) class path. */
class UserCodePolicyTest {
    static final String JOB = "job_1700000000000_0001";

    private static UserCodePolicy policy(String mode, String allowList) {
        Configuration conf = new Configuration(false);
        conf.set(JobsConfig.USER_CODE, mode);
        conf.set(JobsConfig.USER_CODE_ALLOW_LIST, allowList);
        return new UserCodePolicy(JobsConfig.from(conf), UserCodePolicyTest.class.getClassLoader());
    }

    private static JobSpec spec(String... keyValues) {
        Map<String, String> conf = new HashMap<>();
        conf.put(MRJobConfig.MAP_OUTPUT_KEY_CLASS, "org.apache.hadoop.io.Text");
        conf.put(MRJobConfig.MAP_OUTPUT_VALUE_CLASS, "org.apache.hadoop.io.IntWritable");
        for (int i = 0; i < keyValues.length; i += 2) {
            conf.put(keyValues[i], keyValues[i + 1]);
        }
        return new JobSpec(JOB, conf, List.of());
    }

    private static UserCodeDecision combine() {
        return new UserCodeDecision(UserCodeDecision.Kind.COMBINE, "combiner allowed");
    }

    @Test
    void allowRunsAnyCombiner() {
        JobSpec s = spec("mapred.combiner.class", "userjob.SumCombiner",
                MRJobConfig.KEY_COMPARATOR, "userjob.ReverseText");
        assertEquals(combine(), policy("allow", "").decide(s));
    }

    @Test
    void denyMergesOnlyWhenTheCombinerIsUserCode() {
        JobSpec s = spec(MRJobConfig.COMBINE_CLASS_ATTR, "userjob.SumCombiner");
        assertEquals(new UserCodeDecision(UserCodeDecision.Kind.MERGE_ONLY,
                "combiner userjob.SumCombiner is user code and camdoop.daemon.user-code=deny"),
                policy("deny", "").decide(s));
    }

    @Test
    void denyStillRunsACombinerFromTheDaemonsClassPath() {
        JobSpec s = spec(MRJobConfig.COMBINE_CLASS_ATTR, IntSumReducer.class.getName());
        assertEquals(combine(), policy("deny", "").decide(s));
    }

    @Test
    void denyRefusesAJobWhoseComparatorIsUserCode() {
        JobSpec s = spec(MRJobConfig.KEY_COMPARATOR, "userjob.ReverseText");
        assertEquals(new UserCodeDecision(UserCodeDecision.Kind.REFUSE, "job " + JOB + " refused: its sort comparator"
                + " userjob.ReverseText is user code and camdoop.daemon.user-code=deny;"
                + " run the job on the stock shuffle"),
                policy("deny", "").decide(s));
    }

    @Test
    void denyRefusesAUserValueClassBecauseMergingLoadsIt() {
        JobSpec s = spec(MRJobConfig.MAP_OUTPUT_VALUE_CLASS, "userjob.Extra");
        assertEquals(UserCodeDecision.Kind.REFUSE, policy("deny", "").decide(s).kind());
    }

    @Test
    void denyRefusesAUserCodecOnlyWhenMapOutputIsCompressed() {
        JobSpec off = spec(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC, "userjob.Codec");
        JobSpec on = spec(MRJobConfig.MAP_OUTPUT_COMPRESS, "true",
                MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC, "userjob.Codec");
        assertEquals(UserCodeDecision.Kind.MERGE_ONLY, policy("deny", "").decide(off).kind());
        assertEquals("job " + JOB + " refused: its map output codec userjob.Codec is user code and"
                + " camdoop.daemon.user-code=deny; run the job on the stock shuffle",
                policy("deny", "").decide(on).reason());
    }

    @Test
    void denyReadsTheCompressSwitchAsHadoopDoes() {
        // Boolean.parseBoolean(" TRUE ") is false, but JobConf.getCompressMapOutput() trims: the codec is loaded.
        JobSpec s = spec(MRJobConfig.MAP_OUTPUT_COMPRESS, " TRUE ",
                MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC, " userjob.Codec ");
        assertEquals("job " + JOB + " refused: its map output codec userjob.Codec is user code and"
                + " camdoop.daemon.user-code=deny; run the job on the stock shuffle",
                policy("deny", "").decide(s).reason());
    }

    @Test
    void classNamesAreReadWithTheirVariablesResolvedAsTheEngineLoadsThem() {
        JobSpec s = spec("camdoop.cmp", "userjob.ReverseText", MRJobConfig.KEY_COMPARATOR, "${camdoop.cmp}",
                MRJobConfig.COMBINE_CLASS_ATTR, IntSumReducer.class.getName());
        assertEquals("job " + JOB + " refused: its sort comparator userjob.ReverseText is user code and"
                + " camdoop.daemon.user-code=deny; run the job on the stock shuffle",
                policy("deny", "").decide(s).reason());
        assertEquals(combine(), policy("allow-list", "userjob.ReverseText").decide(s));
    }

    @Test
    void aClassNameHadoopCannotResolveIsRefusedWhateverTheMode() {
        List<String> chain = new ArrayList<>(List.of(MRJobConfig.KEY_COMPARATOR, "${camdoop.c0}",
                "camdoop.c21", "x.Y"));
        for (int i = 0; i <= 20; i++) {
            chain.addAll(List.of("camdoop.c" + i, "${camdoop.c" + (i + 1) + "}"));
        }
        JobSpec s = spec(chain.toArray(String[]::new));
        assertEquals(new UserCodeDecision(UserCodeDecision.Kind.REFUSE, "job " + JOB + " refused: Variable"
                + " substitution depth too large: 20 ${camdoop.c0}; run the job on the stock shuffle"),
                policy("allow", "").decide(s));
    }

    @Test
    void allowListCoversComparatorsAndCombiners() {
        JobSpec s = spec("mapred.combiner.class", "userjob.SumCombiner",
                MRJobConfig.KEY_COMPARATOR, "userjob.ReverseText");
        assertEquals(combine(), policy("allow-list", "userjob.ReverseText, userjob.SumCombiner").decide(s));
        assertEquals(new UserCodeDecision(UserCodeDecision.Kind.MERGE_ONLY,
                "combiner userjob.SumCombiner is user code not on camdoop.daemon.user-code.allow-list"),
                policy("allow-list", "userjob.ReverseText").decide(s));
        assertEquals(UserCodeDecision.Kind.REFUSE, policy("allow-list", "userjob.SumCombiner").decide(s).kind());
    }

    @Test
    void aUserGroupingComparatorNotAllowedMeansMergeOnly() {
        JobSpec s = spec(MRJobConfig.COMBINE_CLASS_ATTR, IntSumReducer.class.getName(),
                MRJobConfig.COMBINER_GROUP_COMPARATOR_CLASS, "userjob.Group");
        assertEquals(new UserCodeDecision(UserCodeDecision.Kind.MERGE_ONLY,
                "combiner grouping comparator userjob.Group is user code and camdoop.daemon.user-code=deny"),
                policy("deny", "").decide(s));
    }

    @Test
    void theOldApiCombinerWinsAsInHadoop() {
        JobSpec s = spec("mapred.combiner.class", "userjob.SumCombiner",
                MRJobConfig.COMBINE_CLASS_ATTR, IntSumReducer.class.getName());
        assertEquals(UserCodeDecision.Kind.MERGE_ONLY, policy("deny", "").decide(s).kind());
    }

    @Test
    void aJobWithoutCombinerMergesOnly() {
        assertEquals(new UserCodeDecision(UserCodeDecision.Kind.MERGE_ONLY, "job " + JOB + " has no combiner"),
                policy("allow", "").decide(spec()));
    }

    @Test
    void unknownModeIsAClearError() {
        Configuration conf = new Configuration(false);
        conf.set(JobsConfig.USER_CODE, "sometimes");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JobsConfig.from(conf));
        assertEquals("camdoop.daemon.user-code must be allow, allow-list or deny, got 'sometimes'", e.getMessage());
    }

    @Test
    void defaultsAreAllowAndOneHour() {
        JobsConfig c = JobsConfig.from(new Configuration(false));
        assertEquals(UserCodeMode.ALLOW, c.userCodeMode());
        assertEquals(3_600_000L, c.idleTimeoutMs());
        assertEquals(false, c.trustOnFirstUse());
    }
}
