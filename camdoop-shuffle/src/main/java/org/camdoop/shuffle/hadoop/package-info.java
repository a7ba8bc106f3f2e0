/**
 * The two classes Hadoop sees, {@link org.camdoop.shuffle.hadoop.CamdoopMapOutputCollector} and
 * {@link org.camdoop.shuffle.hadoop.CamdoopShuffle}, their job keys ({@link org.camdoop.shuffle.hadoop.CamdoopJobConfig})
 * and the small helpers behind them. The Hadoop-facing classes stay thin: validate, delegate, report.
 */
package org.camdoop.shuffle.hadoop;
