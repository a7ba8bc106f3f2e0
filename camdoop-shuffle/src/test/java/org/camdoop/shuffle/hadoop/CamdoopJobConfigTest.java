package org.camdoop.shuffle.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class CamdoopJobConfigTest {

    private static final String KEY = "mapreduce.job.map.output.collector.class";

    @Test
    void onlyCamdoopsCollectorFirstInTheListRegistersMapOutputs() {
        Configuration conf = new Configuration(false);
        assertEquals(Optional.of("org.apache.hadoop.mapred.MapTask$MapOutputBuffer"),
                CamdoopJobConfig.foreignCollector(conf), "unset: Hadoop's own buffer");
        conf.set(KEY, " org.camdoop.shuffle.hadoop.CamdoopMapOutputCollector , org.example.Other");
        assertEquals(Optional.empty(), CamdoopJobConfig.foreignCollector(conf));
        conf.set(KEY, "org.example.Other,org.camdoop.shuffle.hadoop.CamdoopMapOutputCollector");
        assertEquals(Optional.of("org.example.Other"), CamdoopJobConfig.foreignCollector(conf),
                "Hadoop takes the first collector that initialises");
    }
}
