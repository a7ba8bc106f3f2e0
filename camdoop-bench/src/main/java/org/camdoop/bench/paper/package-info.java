/** {@code camdoop bench paper}: the paper's testbed experiments (Figures 5, 7a/b and 10) swept on one embedded torus. */
package org.camdoop.bench.paper;
