/** Workload generators (the paper's S-ratio map outputs, Zipf keys, text corpora) and the reference results they must produce. */
package org.camdoop.workload;
