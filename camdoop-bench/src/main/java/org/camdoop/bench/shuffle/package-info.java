/** {@code camdoop bench shuffle}: the paper's Figure 5 experiment (synthetic S-ratio workload) on an embedded torus. */
package org.camdoop.bench.shuffle;
