/**
 * The at-scale shuffle simulator of paper section 5 (Figures 6, 7c and 7d): a flow-level fluid model of the
 * per-reducer trees of {@link org.camdoop.torus.trees.TreeChoice} on a failure-free torus with links of one rate, and
 * the switch lower bounds the paper compares against. See docs/simulation.md for the model and what it leaves out.
 */
package org.camdoop.sim;
