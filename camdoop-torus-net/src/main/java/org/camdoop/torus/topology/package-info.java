/** The torus itself: its shape, server coordinates, the six neighbour ports, and which servers and links have failed. */
package org.camdoop.torus.topology;
