/** Spanning trees rooted at a reducer: the six disjoint trees of Camdoop section 4.1, the shortest-path alternative, and their placement on live servers. */
package org.camdoop.torus.trees;
