/**
 * What a daemon tells its operator: a {@link org.camdoop.shuffle.daemon.status.DaemonSnapshot} of its links, buffers
 * and shuffles, rendered as Prometheus text and JSON by {@link org.camdoop.shuffle.daemon.status.StatusHttpServer}
 * (standalone daemons) and published through Hadoop's metrics system by
 * {@link org.camdoop.shuffle.daemon.status.CamdoopMetricsSource} (inside a NodeManager, whose JMX and Prometheus
 * endpoints then carry it). Metric names are documented in {@code docs/operations.md}.
 */
package org.camdoop.shuffle.daemon.status;
