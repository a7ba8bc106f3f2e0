/**
 * {@code camdoop bench hadoop}: the unmodified Hadoop examples wordcount and sort, each with the stock shuffle and with
 * Camdoop on one MiniMRYarnCluster, measured side by side from the jobs' JobHistory files. See
 * docs/benchmarks-hadoop.md.
 */
package org.camdoop.bench.hadoop;
