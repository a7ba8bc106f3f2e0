/** PNG plots of the benchmarks and the simulator, in the paper's style (log-scale time). */
package org.camdoop.sim.plot;
