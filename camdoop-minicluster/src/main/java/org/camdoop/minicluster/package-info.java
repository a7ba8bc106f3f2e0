/**
 * {@code camdoop minicluster}: a MiniMRYarnCluster on the local file system with one Camdoop daemon per NodeManager
 * (plus forwarding-only daemons filling the torus), running an unmodified hadoop-mapreduce-examples program in a child
 * JVM and reporting its exit status, wall time and job counters as one JSON line. Users try Camdoop with it through
 * {@link org.camdoop.minicluster.MiniClusterRunner} (one program per cluster); the Hadoop benchmark and the end-to-end
 * tests run several jobs on one {@link org.camdoop.minicluster.MiniCluster}.
 */
package org.camdoop.minicluster;
