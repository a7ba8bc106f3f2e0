/** Benchmarks that measure Camdoop side by side with its baselines in one run and print the ratios. */
package org.camdoop.bench;
