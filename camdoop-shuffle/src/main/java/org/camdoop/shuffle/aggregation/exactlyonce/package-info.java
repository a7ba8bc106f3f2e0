/** Exactly-once bookkeeping: which map attempts each end-of-stream includes, and the root's union-and-check. */
package org.camdoop.shuffle.aggregation.exactlyonce;
