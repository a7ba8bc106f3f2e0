/**
 * The aggregation engine every tree vertex runs: sorted runs of raw IFile-layout records, their k-way merge under the
 * job's RawComparator with an explicit "blocked on input i" result, the job's combiner applied on path, key striping
 * across trees, and serialization of the output into wire chunks.
 */
package org.camdoop.shuffle.aggregation;
