package org.camdoop.bench.hadoop;

/**
 * What one measured job did, from its JobHistory file. Times are the JobHistory's (the AM's clock), bytes the task
 * counters of the successful attempts summed.
 *
 * @param job {@code wordcount} or {@code sort}
 * @param shuffle {@code stock} or {@code camdoop}
 * @param jobId the YARN job id
 * @param jobSeconds the job's launch (the AM started it) to its finish
 * @param shuffleReduceSeconds the last successful map attempt's finish to the job's finish
 * @param networkBytes stock: bytes the reduces fetched from maps on another NodeManager, exact from the
 *     {@link FetcherLogs} when they account for every shuffled byte, else the {@link NetworkEstimate}; camdoop: the
 *     "Bytes sent on torus links" counter (chunk bytes every daemon stream sent to a daemon at another torus
 *     coordinate, i.e. another server, counted once per hop)
 * @param networkSource how {@code networkBytes} was obtained: {@code fetcher-logs}, {@code estimate} or
 *     {@code torus-link-counter}
 * @param networkEstimateBytes stock: the {@link NetworkEstimate} (kept to compare with the exact figure); camdoop: 0
 * @param reduceDiskBytes FILE_BYTES_WRITTEN of the reduce tasks: spills, merges and, output being on file:///, the
 *     job output
 * @param outputBytes the reduce tasks' FileOutputFormat BYTES_WRITTEN (the job output)
 * @param shuffleBytes REDUCE_SHUFFLE_BYTES of the job (local and remote)
 * @param mapOutputBytes MAP_OUTPUT_MATERIALIZED_BYTES of the job
 * @param camdoopReceived the Camdoop counter "Bytes the reducer received" (0 for stock)
 * @param camdoopMapOutputs the Camdoop counter "Bytes the map outputs held" (0 for stock)
 * @param recordsCombined the Camdoop counter "Records combined on path"
 * @param stockFallbacks the Camdoop counter "Reduce attempts on the stock shuffle"
 * @param maps successful map tasks
 * @param reduces successful reduce tasks
 * @param nodes distinct NodeManagers the successful attempts ran on
 */
record JobFigures(String job, String shuffle, String jobId, double jobSeconds, double shuffleReduceSeconds,
        long networkBytes, String networkSource, long networkEstimateBytes, long reduceDiskBytes, long outputBytes,
        long shuffleBytes, long mapOutputBytes,
        long camdoopReceived, long camdoopMapOutputs, long recordsCombined, long stockFallbacks, int maps,
        int reduces, int nodes) {

    /** Reduce-side disk bytes net of the job output. */
    long diskBytesNetOfOutput() {
        return reduceDiskBytes - outputBytes;
    }
}
